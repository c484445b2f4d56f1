import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { BlogFeedScope, BlogPostState } from './blog.enums.js';
import type { Engagement } from './engagement/blog-engagement.service.js';
import { POST_FIELDS as F } from './blog-post.fields.js';

@ObjectType({ simpleResolvers: true, description: '投稿のカテゴリ（名前と色）' })
export class BlogCategoryRef {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field({ description: '色 #rrggbb' }) color!: string;
}

@ObjectType({ simpleResolvers: true, description: '投稿の作成者' })
export class BlogAuthor {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) departmentName!: string | null;
}

@ObjectType({ simpleResolvers: true, description: '投稿に付いたタグ' })
export class BlogTagRef {
  @Field(() => Int) id!: number;
  @Field() content!: string;
}

@ObjectType({ simpleResolvers: true, description: 'メンションされた社員（@氏名。本文・コメントで名前を書いた人）' })
export class MentionedPerson {
  @Field(() => Int) id!: number;
  @Field() name!: string;
}

@ObjectType({
  simpleResolvers: true,
  description: '投稿の添付ファイル（1件）。URL は投稿を見られる人にだけ配信される。',
})
export class BlogAttachment {
  @Field({ description: 'ファイル名（表示用）' }) name!: string;
  @Field({ description: 'MIME タイプ（text/plain, application/pdf, image/png, image/jpeg, image/gif）' }) type!: string;
  @Field(() => Int, { description: 'バイト数' }) size!: number;
  @Field({ description: 'ダウンロード・表示の URL' }) url!: string;
  @Field(() => String, { nullable: true, description: '画像のサムネイル URL（画像以外は null）' }) thumbnailUrl!:
    string | null;
}

@ObjectType({ simpleResolvers: true, description: 'ブログの投稿' })
export class BlogPostView {
  @Field(() => Int) id!: number;
  @Field({ description: F.title.description }) title!: string;
  @Field(() => GraphQLJSONObject, { description: '本文（Editor.js の文書。保存形式）' }) content!: Record<
    string,
    unknown
  >;
  @Field({ description: '本文の HTML（サーバーで文書から描画し、許可リストでサニタイズ済み）' }) contentHtml!: string;
  @Field(() => BlogCategoryRef, { nullable: true, description: 'カテゴリ（カテゴリ未選択の下書きは null）' })
  category!: BlogCategoryRef | null;
  @Field(() => BlogAuthor) author!: BlogAuthor;
  @Field(() => [BlogTagRef]) tags!: BlogTagRef[];
  @Field(() => [MentionedPerson], {
    description:
      '本文がメンションしている社員（本文の <a href="/profile/{id}">@氏名</a>。保存のたびに本文から読む。カテゴリのメンバーと作成者だけ）',
  })
  mentions!: MentionedPerson[];
  @Field({ description: F.allowComments.description }) allowComments!: boolean;
  @Field({ description: F.allowLikes.description }) allowLikes!: boolean;
  @Field({ description: F.requireConfirmation.description }) requireConfirmation!: boolean;
  @Field({ description: '公開開始日 YYYY-MM-DD' }) publishStart!: string;
  @Field(() => String, { nullable: true, description: '公開終了日 YYYY-MM-DD（なしなら無期限）' }) publishEnd!:
    string | null;
  @Field({ description: 'ピン留めの設定（速報に出るのはピン留め期間中だけ: pinned）' }) isPin!: boolean;
  @Field(() => String, { nullable: true, description: 'ピン留め開始日 YYYY-MM-DD' }) pinStart!: string | null;
  @Field(() => String, { nullable: true, description: 'ピン留め終了日 YYYY-MM-DD' }) pinEnd!: string | null;
  @Field({ description: '今ピン留め中か（公開中で、今日がピン留め期間内。東京の暦日、両端を含む）' }) pinned!: boolean;
  @Field(() => BlogPostState, { description: '状態（下書き・公開予定・公開中・公開終了）' }) state!: BlogPostState;
  @Field({ description: '状態の表示名' }) stateLabel!: string;
  @Field(() => BlogAttachment, { nullable: true }) attachment!: BlogAttachment | null;
  @Field({ description: '作成日時' }) createdAt!: Date;
  @Field({ description: '編集日時 (edit_date)' }) updatedAt!: Date;
  @Field(() => Int) version!: number;
  @Field({ description: '閲覧中の社員が編集できるか（作成者だけ）' }) canEdit!: boolean;
  @Field({ description: '閲覧中の社員が削除できるか（作成者と管理者・システム管理者）' }) canDelete!: boolean;
  /**
   * Not a field: set on live deliveries (blog.live.ts), where one view is rendered for a whole class
   * of subscribers. The counts and likers read once for the event, and the flags of this class; the
   * engagement and comment fields answer from it instead of reading the (first) subscriber's context.
   */
  engagement?: ViewEngagement;
}

/** A post's engagement as one viewer of a live delivery sees it: the feed's (Engagement), with the comment and reading counts. */
export interface ViewEngagement extends Engagement {
  commentCount: number;
  confirmedCount: number;
  confirmedByMe: boolean;
}

@ObjectType({ simpleResolvers: true, description: 'ブログ一覧の1ページ（ピン留め中が先、次に公開開始日の新しい順）' })
export class BlogFeedPage {
  @Field(() => [BlogPostView]) items!: BlogPostView[];
  @Field(() => String, {
    nullable: true,
    description: '次のページのカーソル（最後なら null）。blogFeed の after に渡す。',
  })
  nextCursor!: string | null;
  @Field(() => [BlogPostView], {
    nullable: true,
    description:
      '速報（blogPinned と同じ投稿）。選んだときだけ読む: 一覧の最初のページと一緒に1回の要求で（null: 選ばれていない）',
  })
  pinned!: BlogPostView[] | null;
}

@InputType({ description: 'ブログ一覧の絞り込み' })
export class BlogFeedFilter {
  @Field(() => BlogFeedScope, { nullable: true, defaultValue: BlogFeedScope.ALL, description: 'すべて / 自分のブログ' })
  scope?: BlogFeedScope;
  @Field(() => String, { nullable: true, description: 'タイトルの部分一致' }) title?: string | null;
  @Field(() => Int, { nullable: true, description: 'このタグの付いた投稿' }) tagId?: number | null;
  @Field(() => Int, { nullable: true, description: 'このカテゴリの投稿' }) categoryId?: number | null;
  @Field(() => Int, { nullable: true, description: '作成者がこの部署の投稿' }) departmentId?: number | null;
  @Field({
    nullable: true,
    defaultValue: false,
    description: '公開予定・公開終了の投稿も含める（管理者・システム管理者だけ。自分の投稿は指定しなくても含まれる）',
  })
  includeOutsideWindow?: boolean;
  @Field({
    nullable: true,
    defaultValue: false,
    description: '今日ピン留めの投稿（速報）を除く。速報の欄に出ている投稿を一覧に重ねて出さないとき',
  })
  withoutPinned?: boolean;
}

@InputType({ description: 'ブログ投稿の作成・更新（作成者はログイン中の社員）' })
export class BlogPostInput {
  @Field({ description: F.title.description }) title!: string;
  @Field(() => GraphQLJSONObject, { description: '本文（Editor.js の文書 { time?, version?, blocks }）' })
  content!: Record<string, unknown>;
  @Field(() => Int, { nullable: true, description: F.categoryId.description }) categoryId?: number | null;
  @Field(() => [Int], { nullable: true, description: F.tagIds.description }) tagIds?: number[] | null;
  @Field({ nullable: true, description: `${F.allowComments.description}（既定 true）` }) allowComments?: boolean;
  @Field({ nullable: true, description: `${F.allowLikes.description}（既定 true）` }) allowLikes?: boolean;
  @Field(() => String, { nullable: true, description: F.publishStart.description }) publishStart?: string | null;
  @Field(() => String, { nullable: true, description: F.publishEnd.description }) publishEnd?: string | null;
  @Field({ nullable: true, description: F.isPin.description }) isPin?: boolean;
  @Field(() => String, { nullable: true, description: F.pinStart.description }) pinStart?: string | null;
  @Field(() => String, { nullable: true, description: F.pinEnd.description }) pinEnd?: string | null;
  @Field({ nullable: true, description: F.isDraft.description }) isDraft?: boolean;
  @Field({ nullable: true, description: `${F.requireConfirmation.description}（既定 false）` })
  requireConfirmation?: boolean;
  @Field(() => Int, { nullable: true, description: '更新時は必須（読み込んだときの version）' }) version?: number;
}
