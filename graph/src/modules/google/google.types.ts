import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ simpleResolvers: true, description: 'Googleカレンダー連携の状態（自分の分だけ）' })
export class GoogleCalendarStatus {
  @Field({ description: 'サーバーで連携が設定されている（GOOGLE_CLIENT_ID / SECRET）' }) enabled!: boolean;
  @Field() connected!: boolean;
  @Field(() => String, { nullable: true, description: '接続したGoogleアカウント' }) email!: string | null;
  @Field(() => Date, { nullable: true }) connectedAt!: Date | null;
  @Field(() => Date, { nullable: true, description: '最後に同期が成功した日時' }) lastSuccessAt!: Date | null;
  @Field(() => String, { nullable: true, description: '最後の同期エラー（成功すると消える）' }) lastError!:
    string | null;
  @Field(() => Date, { nullable: true }) lastErrorAt!: Date | null;
  @Field({ description: '同期待ち（依頼済みの取り込み、またはGoogleへ未反映の変更がある）' }) pending!: boolean;
  @Field(() => Int, { description: 'Googleへまだ反映されていない自分の予定の数' }) pendingChanges!: number;
}

@ObjectType({ simpleResolvers: true, description: 'ICSフィード（購読用の秘密URL）' })
export class IcsFeed {
  @Field({ description: '秘密のURL（作り直すと古いURLは使えなくなる）。作成直後だけ返る' }) url!: string;
}

@ObjectType({ simpleResolvers: true, description: 'ICSフィードの設定（自分の分だけ）' })
export class IcsFeedSettings {
  @Field({ description: 'ICSフィードが有効か' }) enabled!: boolean;
  @Field({
    description:
      '非公開の予定のタイトル・説明・会議URLをフィードに載せる（既定はいいえ: 「予定あり」とだけ表示）。URLを無効にすると既定に戻る',
  })
  showPrivateDetails!: boolean;
}
