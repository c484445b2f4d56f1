import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../platform/context.js';
import { GoogleCalendarStatus, IcsFeed, IcsFeedSettings } from './google.types.js';

@Resolver()
export class GoogleCalendarResolver {
  @Authorized()
  @Query(() => GoogleCalendarStatus, {
    description: '自分のGoogleカレンダー連携の状態（最後の成功日時、エラー、同期待ち）',
  })
  googleCalendarStatus(@Ctx() ctx: AppContext): Promise<GoogleCalendarStatus> {
    return ctx.services.google.status(ctx);
  }

  @Authorized()
  @Query(() => String, {
    description: 'Googleカレンダー連携の同意画面のURL（このセッションに結び付いた署名付きstate入り）',
  })
  googleCalendarConnectUrl(@Ctx() ctx: AppContext): string {
    return ctx.services.google.connectUrl(ctx);
  }

  @Authorized()
  @Mutation(() => GoogleCalendarStatus, {
    description: '連携を解除する（Google側の許可も取り消し、取り込んだ予定を削除）',
  })
  disconnectGoogleCalendar(@Ctx() ctx: AppContext): Promise<GoogleCalendarStatus> {
    return ctx.services.google.disconnect(ctx);
  }

  @Authorized()
  @Mutation(() => GoogleCalendarStatus, {
    description: '表示中の月（YYYY-MM）をGoogleカレンダーと同期する（画面表示時・日付変更時）',
  })
  syncGoogleCalendar(@Ctx() ctx: AppContext, @Arg('month') month: string): Promise<GoogleCalendarStatus> {
    return ctx.services.google.requestSync(ctx, month);
  }

  @Authorized()
  @Query(() => Boolean, { description: '自分のICSフィードが有効か' })
  icsFeedEnabled(@Ctx() ctx: AppContext): Promise<boolean> {
    return ctx.services.ics.enabled(ctx);
  }

  @Authorized()
  @Query(() => IcsFeedSettings, { description: '自分のICSフィードの設定（有効か、非公開の予定の内容を載せるか）' })
  icsFeedSettings(@Ctx() ctx: AppContext): Promise<IcsFeedSettings> {
    return ctx.services.ics.settings(ctx);
  }

  @Authorized()
  @Mutation(() => IcsFeedSettings, {
    description:
      '非公開の予定のタイトル・説明をICSフィードに載せるか（既定は「予定あり」とだけ表示）。フィードが有効なときだけ',
  })
  setIcsFeedShowPrivateDetails(@Ctx() ctx: AppContext, @Arg('show') show: boolean): Promise<IcsFeedSettings> {
    return ctx.services.ics.setShowPrivateDetails(ctx, show);
  }

  @Authorized()
  @Mutation(() => IcsFeed, { description: 'ICSフィードのURLを発行する（作り直すと古いURLは無効）' })
  regenerateIcsFeed(@Ctx() ctx: AppContext): Promise<IcsFeed> {
    return ctx.services.ics.regenerate(ctx);
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'ICSフィードを無効にする' })
  revokeIcsFeed(@Ctx() ctx: AppContext): Promise<boolean> {
    return ctx.services.ics.revoke(ctx);
  }
}
