import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { NotificationKind } from './notification.writes.js';

registerEnumType(NotificationKind, {
  name: 'NotificationKind',
  description: '通知の種類',
  valuesConfig: {
    COMMENT: { description: '自分の投稿・プロフィールにコメント・返信があった' },
    REPLY: { description: '自分のコメント（投稿・プロフィールの）に返信があった' },
    LIKE: { description: '自分の投稿・プロフィールにいいねがあった（取り消されると通知も消える）' },
    READ_REQUEST: { description: '速報の投稿の作成者から確認（必読）を求められた・催促された' },
  },
});

@ObjectType({ simpleResolvers: true, description: '通知をした社員' })
export class NotificationActor {
  @Field(() => Int) id!: number;
  @Field({ description: '氏名（社員が削除されていれば Unknown）' }) name!: string;
}

@ObjectType({
  simpleResolvers: true,
  description:
    'ヘッダーのベルの通知1件。投稿か自分のプロフィールについて。同じ投稿（プロフィール）へのいいね・コメント、同じスレッドの返信はまとめて1件（確認の依頼はまとめない）。受け取った本人だけが読める。見られなくなった投稿の通知は出ない',
})
export class Notification {
  @Field(() => Int, { description: 'まとまりのうち最新の通知の ID（既読にするとまとまり全体が既読になる）' })
  id!: number;
  @Field(() => NotificationKind) kind!: NotificationKind;
  @Field(() => NotificationActor, { nullable: true, description: '最新の操作をした社員（削除済みなら null）' })
  actor!: NotificationActor | null;
  @Field(() => [NotificationActor], { description: '操作をした社員（新しい順に最大3人、同じ人は1回）' })
  actors!: NotificationActor[];
  @Field(() => Int, { description: '操作をした社員の人数（「…さん他2人」）' }) actorCount!: number;
  @Field(() => Int, { nullable: true, description: '対象の投稿 ID（リンク先。プロフィールの通知なら null）' })
  postId!: number | null;
  @Field(() => String, { nullable: true, description: '対象の投稿のタイトル（プロフィールの通知なら null）' })
  postTitle!: string | null;
  @Field(() => Int, { nullable: true, description: '対象のプロフィール ID（自分のプロフィール。投稿の通知なら null）' })
  profileId!: number | null;
  @Field(() => Int, { nullable: true, description: 'コメント・返信の通知なら最新のコメントの ID' }) commentId!:
    number | null;
  @Field(() => String, { nullable: true, description: '最新のコメント・返信の冒頭（60文字まで）' }) excerpt!:
    string | null;
  @Field({ description: '最新の通知の日時' }) createdAt!: Date;
  @Field({ description: '既読か（まとまりのどれかが未読なら未読）' }) read!: boolean;
}

@ObjectType({ simpleResolvers: true, description: '通知の1ページ（新しい順）' })
export class NotificationPage {
  @Field(() => [Notification]) items!: Notification[];
  @Field(() => String, { nullable: true, description: '次のページの after（最後のページなら null）' }) nextCursor!:
    string | null;
  @Field(() => Int, { description: '未読の通知（まとまり）の数' }) unreadCount!: number;
}

@ObjectType({
  simpleResolvers: true,
  description: '自分の通知が変わった（届いた・取り消された・既読にした）。一覧は読み直す',
})
export class NotificationsChange {
  @Field(() => Int, { description: '今の未読の数' }) unreadCount!: number;
  @Field(() => Int, {
    nullable: true,
    description: '届いた・取り消された通知の投稿 ID（既読の変更やプロフィールの通知なら null）',
  })
  postId!: number | null;
}
