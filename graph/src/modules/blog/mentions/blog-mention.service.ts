import type { AppContext } from '../../../platform/context.js';
import { requireUser } from '../../../platform/authz.js';
import { badInput, notFound } from '../../../platform/errors.js';
import { escapeLike } from '../../../platform/list-query.js';
import { checkId } from '../../../platform/validation.js';
import { hasKana, kanaToRomaji } from '../../../lib/kana.js';
import type { BlogCategoryService } from '../blog-category.service.js';
import { IN_CATEGORY } from '../blog-category.service.js';
import type { BlogPostReads } from '../blog-post.reads.js';
import type { Audience } from './blog-mention.rules.js';

export const MENTION_CANDIDATES = { default: 8, max: 20 };
const MAX_QUERY = 30;

/**
 * A romaji key that forgives how a name was spelled (Satou / Sato / Satoh, Honma / Homma, Yuuki /
 * Yuki): letters only, long vowels and the m before b/m/p folded. Applied in SQL to both the login
 * ID (and mail name) and the typed query, so the two sides are folded by one definition.
 */
const romajiKey = (x: string) =>
  `regexp_replace(regexp_replace(regexp_replace(regexp_replace(lower(${x}), '[^a-z]', '', 'g'),
     'm([bmp])', 'n\\1', 'g'), 'o(u|o|h([^aiueoy]|$))', 'o\\2', 'g'), 'uu', 'u', 'g')`;
/** A login ID or mail name's parts in the other order too (family name first, as Japanese say it). */
const swapped = (x: string) =>
  `split_part(regexp_replace(${x}, '[_-]', '.', 'g'), '.', 2) || split_part(regexp_replace(${x}, '[_-]', '.', 'g'), '.', 1)`;
const MAIL_NAME = `split_part(coalesce(e.email, ''), '@', 1)`;

export interface MentionCandidate {
  id: number;
  name: string;
  departmentName: string | null;
}

/**
 * Whom the writer of a post or comment may mention (@): the active members of the post's category
 * and its author — the one rule blog-mention.rules.ts holds at save — matched by name (kanji, spaces
 * ignored), by login ID or mail name in romaji, or by kana read as romaji (「なかむら」 finds
 * makoto.nakamura), the writer left out. Asked for a category the writer may see or post in, or a
 * post they may read (NOT_FOUND otherwise: nothing of it is told).
 */
export class BlogMentionService {
  constructor(
    private readonly posts: BlogPostReads,
    private readonly categories: BlogCategoryService,
  ) {}

  async candidates(
    ctx: AppContext,
    q: { query?: string | null; categoryId?: number | null; postId?: number | null; limit?: unknown },
  ): Promise<MentionCandidate[]> {
    const user = requireUser(ctx);
    const limit = q.limit ?? MENTION_CANDIDATES.default;
    if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > MENTION_CANDIDATES.max)
      throw badInput(`limit は 1〜${MENTION_CANDIDATES.max} の整数で指定してください。`, [
        { field: 'limit', message: `1〜${MENTION_CANDIDATES.max}` },
      ]);
    const query = (q.query ?? '').replace(/[\s\u3000]+/g, '');
    if (query.length > MAX_QUERY)
      throw badInput(`検索語は${MAX_QUERY}文字以内で入力してください。`, [
        { field: 'query', message: `${MAX_QUERY}文字以内` },
      ]);
    const audience = await this.audience(ctx, q.categoryId ?? null, q.postId ?? null);
    if (audience.categoryId === null && audience.authorId === user.id) return [];
    // Kana is matched as romaji; a query with kanji or other letters only by name.
    const romaji = /^[\p{Script=Hiragana}\p{Script=Katakana}ー\w.-]+$/u.test(query)
      ? hasKana(query)
        ? kanaToRomaji(query)
        : query
      : '';
    const like = `%${escapeLike(query)}%`;
    const key = /[a-zA-Z]/.test(romaji) ? romaji : null;
    const rows: { id: number; name: string; department_name: string | null }[] = await ctx.em.execute(
      `select e.id, e.name, d.name as department_name
           from employee e left join department d on d.id = e.department_id
          where e.status = 'ACTIVE' and e.id <> ?
            and (e.id = ? or coalesce(${IN_CATEGORY}, false))
            and (translate(e.name, ' \u3000', '') ilike ?
                 or (?::text is not null and (
                   ${romajiKey('e.login_id')} like '%' || ${romajiKey('?')} || '%'
                   or ${romajiKey(swapped('e.login_id'))} like '%' || ${romajiKey('?')} || '%'
                   or ${romajiKey(MAIL_NAME)} like '%' || ${romajiKey('?')} || '%'
                   or ${romajiKey(swapped(MAIL_NAME))} like '%' || ${romajiKey('?')} || '%')))
          order by translate(e.name, ' \u3000', '') ilike ? desc, d.name nulls last, e.name, e.id
          limit ?`,
      [
        user.id,
        audience.authorId,
        audience.categoryId,
        audience.categoryId,
        like,
        key,
        key,
        key,
        key,
        key,
        `${escapeLike(query)}%`,
        limit,
      ],
    );
    return rows.map((r) => ({ id: r.id, name: r.name, departmentName: r.department_name }));
  }

  private async audience(ctx: AppContext, categoryId: number | null, postId: number | null): Promise<Audience> {
    const user = requireUser(ctx);
    if ((categoryId === null) === (postId === null))
      throw badInput('カテゴリ（categoryId）か投稿（postId）のどちらか一方を指定してください。', [
        { field: categoryId === null ? 'categoryId' : 'postId', message: 'どちらか一方' },
      ]);
    if (postId !== null) {
      const post = await this.posts.readableRow(ctx, ctx.em, postId);
      return { categoryId: post.category_id, authorId: post.author_id };
    }
    checkId(categoryId!, 'カテゴリ');
    const access = await this.categories.access(ctx.em, user);
    if (!access.readable.includes(categoryId!) && !access.postable.has(categoryId!)) throw notFound('カテゴリ');
    return { categoryId, authorId: user.id };
  }
}
