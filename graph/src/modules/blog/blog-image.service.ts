import type { EntityManager } from '@mikro-orm/postgresql';
import type { Readable } from 'node:stream';
import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { notFound } from '../../platform/errors.js';
import {
  checkAttachment,
  fileResponseHeaders,
  IMAGE_KINDS,
  isFileKey,
  newFileKey,
  parseDataUrl,
  type FileStorage,
} from '../../lib/files/index.js';
import { imageUrls, type RichTextDocument } from '../../lib/rich-text/index.js';
import { blogInput } from './blog.errors.js';
import { fileRefused } from './blog-post.attachment.js';

/** Where a body image is served: `/api/blog_images/<uuid>.<ext>` (its key is `blog-images/<uuid>.<ext>`). */
const URL_PREFIX = '/api/blog_images/';
const NAMESPACE = 'blog-images';
export const blogImageUrl = (key: string) => URL_PREFIX + key.slice(NAMESPACE.length + 1);
const keyOfUrl = (url: string): string | null => {
  const key = url.startsWith(URL_PREFIX) ? `${NAMESPACE}/${url.slice(URL_PREFIX.length)}` : null;
  return key && isFileKey(key) && key.split('/').length === 2 ? key : null;
};
/** The image URLs a post's body may hold (lib/rich-text's image policy): ours, in this form. */
export const isBlogImageUrl = (url: string): boolean => keyOfUrl(url) !== null;
export const blogImageKey = (file: string): string | null => keyOfUrl(URL_PREFIX + file);

interface ImageRow {
  key: string;
  name: string;
  content_type: string;
  size: number;
  uploaded_by_id: number;
  post_id: number | null;
}

/**
 * Pictures of posts' bodies (the editor's image tool). Any employee uploads one (png, jpg, gif,
 * checked by content, at most 5 MB); a post's save binds the images its body shows to it, and only
 * images its author uploaded (or already bound to it) may be shown. An image is served to its
 * uploader and to whoever may read its post (`mayReadPost`, the post's visibility rule).
 */
export class BlogImageService {
  constructor(private readonly files: FileStorage) {}

  async upload(
    ctx: AppContext,
    input: { name?: unknown; dataUrl?: unknown },
  ): Promise<{ url: string; name: string; type: string; size: number }> {
    const user = requireUser(ctx);
    await ctx.services.writes.count(ctx, user.id, 'upload');
    const name = typeof input.name === 'string' && input.name.trim() ? input.name.trim() : 'image';
    try {
      const { bytes } = parseDataUrl(input.dataUrl);
      const checked = await checkAttachment({ bytes, fileName: name }, { allowed: IMAGE_KINDS });
      const key = newFileKey(NAMESPACE, checked.extension);
      await this.files.put(key, checked.bytes, { contentType: checked.contentType });
      await ctx.em.execute(
        `insert into blog_image (key, name, content_type, size, uploaded_by_id) values (?, ?, ?, ?, ?)`,
        [key, checked.displayName, checked.contentType, checked.size, user.id],
      );
      return { url: blogImageUrl(key), name: checked.displayName, type: checked.contentType, size: checked.size };
    } catch (e) {
      fileRefused(e, 'data_url');
    }
  }

  /**
   * Binds the images a post's body shows to the post, inside its save's transaction: each must be
   * one the author uploaded that no other post shows, or already this post's; otherwise the save is
   * refused (a body cannot show another post's picture, or anyone else's upload).
   */
  async bind(tx: EntityManager, authorId: number, postId: number, doc: RichTextDocument): Promise<void> {
    const keys = [...new Set(imageUrls(doc).map(keyOfUrl))].filter((k): k is string => k !== null);
    if (keys.length) {
      // Locked first: a picture the unused-picture sweep is taking goes before this check sees it.
      await tx.execute(`select 1 from blog_image where key = any(?::text[]) for update`, [`{${keys.join(',')}}`]);
      const [row]: { refused: string[] }[] = await tx.execute(
        `select array(select k from unnest(?::text[]) k where not exists (
            select 1 from blog_image i where i.key = k and (i.post_id = ? or (i.post_id is null and i.uploaded_by_id = ?)))) as refused`,
        [`{${keys.join(',')}}`, postId, authorId],
      );
      if (row!.refused.length)
        throw blogInput('POST_CONTENT', '本文の画像は、この画面でアップロードしたものだけ使えます。', 'content');
    }
    // A picture an earlier revision shows stays the post's: that revision can be read and restored.
    await tx.execute(
      `update blog_image i set post_id = null
        where i.post_id = ? and not (i.key = any(?::text[]))
          and not exists (select 1 from blog_post_revision r where r.post_id = i.post_id and strpos(r.content::text, ? || substr(i.key, ?)) > 0)`,
      [postId, `{${keys.join(',')}}`, URL_PREFIX, NAMESPACE.length + 2],
    );
    if (keys.length)
      await tx.execute(`update blog_image set post_id = ? where key = any(?::text[])`, [postId, `{${keys.join(',')}}`]);
  }

  /** The image for its uploader, or for a reader of its post; NOT_FOUND to anyone else. */
  async open(
    ctx: AppContext,
    file: string,
    mayReadPost: (postId: number) => Promise<boolean>,
  ): Promise<{ stream: Readable; headers: Record<string, string> }> {
    const user = requireUser(ctx);
    const key = blogImageKey(file);
    const [row]: ImageRow[] = key ? await ctx.em.execute(`select * from blog_image where key = ?`, [key]) : [];
    const visible =
      row && (row.uploaded_by_id === user.id || (row.post_id !== null && (await mayReadPost(row.post_id))));
    const stored = visible ? await this.files.get(row.key) : null;
    if (!stored) throw notFound('画像');
    return {
      stream: stored.stream,
      headers: fileResponseHeaders({ contentType: stored.contentType, displayName: row!.name, size: stored.size }),
    };
  }
}
