import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config/config.js';
import type { RequestMeta } from './context.js';
import { tooManyRequests } from './errors.js';
import { noteRateLimit } from './rate-limit.js';

/** What a person writes often enough to flood others with (their feeds, bells and disks). */
export type WriteKind = 'comment' | 'like' | 'post' | 'upload';

const WINDOW_SECONDS = 60;
const WHAT: Record<WriteKind, string> = {
  comment: 'コメント・返信',
  like: 'いいね・保存',
  post: '投稿',
  upload: 'ファイルのアップロード',
};

/**
 * Per-person write limits, counted in PostgreSQL (every instance shares them) in fixed one-minute
 * windows: one statement per write, counted before the write is checked, so aliases, parallel
 * requests or a stream of refused writes cannot slip past. Over the limit: 429 with Retry-After;
 * every counted answer says where the person stands (RateLimit-* headers).
 * Limits per minute are `THROTTLE_<KIND>S_PER_MINUTE` (config.ts); far above what a person types.
 */
export class WriteThrottle {
  private readonly limits: Record<WriteKind, number>;

  constructor(
    config: Pick<
      Config,
      | 'THROTTLE_COMMENTS_PER_MINUTE'
      | 'THROTTLE_LIKES_PER_MINUTE'
      | 'THROTTLE_POSTS_PER_MINUTE'
      | 'THROTTLE_UPLOADS_PER_MINUTE'
    >,
  ) {
    this.limits = {
      comment: config.THROTTLE_COMMENTS_PER_MINUTE,
      like: config.THROTTLE_LIKES_PER_MINUTE,
      post: config.THROTTLE_POSTS_PER_MINUTE,
      upload: config.THROTTLE_UPLOADS_PER_MINUTE,
    };
  }

  /** Counts one write of `kind` by `employeeId`; TOO_MANY_REQUESTS when it is over the minute's limit. */
  async count(ctx: { em: EntityManager; meta: RequestMeta }, employeeId: number, kind: WriteKind): Promise<void> {
    const em = ctx.em;
    const [row]: { count: number; age: number }[] = await em.execute(
      `insert into write_throttle (employee_id, kind, window_started_at, count) values (?, ?, now(), 1)
       on conflict (employee_id, kind) do update set
         count = case when write_throttle.window_started_at <= now() - make_interval(secs => ?) then 1 else write_throttle.count + 1 end,
         window_started_at = case when write_throttle.window_started_at <= now() - make_interval(secs => ?) then now() else write_throttle.window_started_at end
       returning count, extract(epoch from now() - window_started_at)::float8 as age`,
      [employeeId, kind, WINDOW_SECONDS, WINDOW_SECONDS],
    );
    const limit = this.limits[kind];
    const retry = Math.max(1, Math.ceil(WINDOW_SECONDS - row!.age));
    noteRateLimit(ctx.meta, { limit, remaining: limit - row!.count, resetSeconds: retry });
    if (row!.count <= limit) return;
    throw tooManyRequests(
      `${WHAT[kind]}が短時間に多すぎます（1分間に${limit}件まで）。${retry}秒後にもう一度お試しください。`,
      retry,
    );
  }
}
