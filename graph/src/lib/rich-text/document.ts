import { z } from 'zod';
import { ownFileImages, sanitizeInlineHtml, type SanitizeOptions } from './allow-list.js';
import { RichTextError } from './errors.js';
import { RICH_TEXT_LIMITS, type RichTextLimits } from './limits.js';

/**
 * The stored form of rich text: an Editor.js document (OutputData) holding only the blocks the blog
 * has: paragraph, header (levels 1–3), list (@editorjs/list 2: ordered or unordered, nested items)
 * and image (@editorjs/image, a file of ours). Texts hold inline HTML reduced to the allow-list.
 */
export type CounterType = 'numeric' | 'lower-roman' | 'upper-roman' | 'lower-alpha' | 'upper-alpha';
export interface ListItem {
  content: string;
  meta: Record<string, never>;
  items: ListItem[];
}
export interface ParagraphBlock {
  id?: string;
  type: 'paragraph';
  data: { text: string };
}
export interface HeaderBlock {
  id?: string;
  type: 'header';
  data: { text: string; level: 1 | 2 | 3 };
}
export interface ListBlock {
  id?: string;
  type: 'list';
  data: { style: 'ordered' | 'unordered'; meta: { start?: number; counterType?: CounterType }; items: ListItem[] };
}
export interface ImageBlock {
  id?: string;
  type: 'image';
  data: { file: { url: string }; caption: string; withBorder: boolean; withBackground: boolean; stretched: boolean };
}
export type RichTextBlock = ParagraphBlock | HeaderBlock | ListBlock | ImageBlock;
export interface RichTextDocument {
  time?: number;
  version?: string;
  blocks: RichTextBlock[];
}

export const COUNTER_TYPES: readonly CounterType[] = [
  'numeric',
  'lower-roman',
  'upper-roman',
  'lower-alpha',
  'upper-alpha',
];

const blockId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/)
  .optional();
const envelope = z.object({
  time: z.number().int().nonnegative().optional(),
  version: z.string().max(32).optional(),
  blocks: z.array(z.object({ id: blockId, type: z.string().max(64), data: z.unknown() })),
});
const paragraphData = z.object({ text: z.string() });
const headerData = z.object({ text: z.string(), level: z.number().int() });
const listData = z.object({
  style: z.string(),
  meta: z
    .object({
      start: z.number().int().min(1).max(999_999).optional(),
      counterType: z.enum(COUNTER_TYPES as [CounterType, ...CounterType[]]).optional(),
    })
    .optional(),
  items: z.array(z.unknown()),
});
const listItem = z.object({
  content: z.string(),
  meta: z.unknown().optional(),
  items: z.array(z.unknown()).optional(),
});
const imageData = z.object({
  file: z.object({ url: z.string().max(1000) }),
  caption: z.string().optional(),
  withBorder: z.boolean().optional(),
  withBackground: z.boolean().optional(),
  stretched: z.boolean().optional(),
});

function parseWith<T>(schema: z.ZodType<T>, value: unknown, path: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const where = [path, ...issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))].join('');
  throw new RichTextError('RICH_TEXT_MALFORMED', `本文の形式が正しくありません（${where || '文書'}）。`, where);
}

export interface ParseOptions extends SanitizeOptions {
  limits?: Partial<RichTextLimits>;
}

/**
 * Checks an Editor.js document (an object, or its JSON text) against the schema and the bounds, and
 * returns its normalized stored form: unknown fields dropped, every text reduced to the inline
 * allow-list. Throws RichTextError with a typed code, a Japanese message and the path.
 */
export function parseDocument(input: unknown, options: ParseOptions = {}): RichTextDocument {
  const limits = { ...RICH_TEXT_LIMITS, ...options.limits };
  if (typeof input === 'string') {
    if (input.length > limits.maxTotalLength * 4)
      throw new RichTextError(
        'RICH_TEXT_TOO_LONG',
        `本文が長すぎます（上限 ${limits.maxTotalLength.toLocaleString('ja-JP')} 文字）。`,
      );
    try {
      input = JSON.parse(input);
    } catch {
      throw new RichTextError('RICH_TEXT_MALFORMED', '本文の形式が正しくありません（JSON として読めません）。');
    }
  }
  const blocksValue = (input as { blocks?: unknown } | null)?.blocks;
  if (Array.isArray(blocksValue) && blocksValue.length > limits.maxBlocks) {
    throw new RichTextError(
      'RICH_TEXT_TOO_MANY_BLOCKS',
      `本文のブロックが多すぎます（上限 ${limits.maxBlocks} 個）。`,
      'blocks',
    );
  }
  const doc = parseWith(envelope, input, '');
  let total = 0;
  let listItems = 0;
  const text = (value: string, path: string): string => {
    if (value.length > limits.maxTextLength) {
      throw new RichTextError(
        'RICH_TEXT_TOO_LONG',
        `本文の文章が長すぎます（1 か所につき上限 ${limits.maxTextLength.toLocaleString('ja-JP')} 文字）。`,
        path,
      );
    }
    total += value.length;
    if (total > limits.maxTotalLength) {
      throw new RichTextError(
        'RICH_TEXT_TOO_LONG',
        `本文が長すぎます（上限 ${limits.maxTotalLength.toLocaleString('ja-JP')} 文字）。`,
        path,
      );
    }
    return sanitizeInlineHtml(value, options);
  };
  const items = (values: unknown[], depth: number, path: string): ListItem[] => {
    if (values.length && depth > limits.maxListDepth) {
      throw new RichTextError(
        'RICH_TEXT_TOO_DEEP',
        `リストの入れ子が深すぎます（上限 ${limits.maxListDepth} 段）。`,
        path,
      );
    }
    listItems += values.length;
    if (listItems > limits.maxListItems) {
      throw new RichTextError(
        'RICH_TEXT_TOO_MANY_BLOCKS',
        `リストの項目が多すぎます（上限 ${limits.maxListItems.toLocaleString('ja-JP')} 個）。`,
        path,
      );
    }
    return values.map((value, i) => {
      const at = `${path}[${i}]`;
      const item = parseWith(listItem, value, at);
      return {
        content: text(item.content, `${at}.content`),
        meta: {},
        items: items(item.items ?? [], depth + 1, `${at}.items`),
      };
    });
  };

  const blocks = doc.blocks.map((block, i): RichTextBlock => {
    const at = `blocks[${i}].data`;
    const id = block.id !== undefined ? { id: block.id } : {};
    switch (block.type) {
      case 'paragraph': {
        const d = parseWith(paragraphData, block.data, at);
        return { ...id, type: 'paragraph', data: { text: text(d.text, `${at}.text`) } };
      }
      case 'header': {
        const d = parseWith(headerData, block.data, at);
        if (d.level !== 1 && d.level !== 2 && d.level !== 3) {
          throw new RichTextError('RICH_TEXT_UNSUPPORTED_BLOCK', '見出しはレベル 1〜3 だけ使えます。', `${at}.level`);
        }
        return { ...id, type: 'header', data: { text: text(d.text, `${at}.text`), level: d.level } };
      }
      case 'list': {
        const d = parseWith(listData, block.data, at);
        if (d.style !== 'ordered' && d.style !== 'unordered') {
          throw new RichTextError(
            'RICH_TEXT_UNSUPPORTED_BLOCK',
            'リストは箇条書きか番号付きだけ使えます（チェックリストは使えません）。',
            `${at}.style`,
          );
        }
        // The list tool's defaults (start 1, numeric) are stored as their absence: one form per meaning.
        const { start, counterType } = d.meta ?? {};
        const meta =
          d.style === 'ordered'
            ? {
                ...(start !== undefined && start !== 1 ? { start } : {}),
                ...(counterType && counterType !== 'numeric' ? { counterType } : {}),
              }
            : {};
        return { ...id, type: 'list', data: { style: d.style, meta, items: items(d.items, 1, `${at}.items`) } };
      }
      case 'image': {
        const d = parseWith(imageData, block.data, at);
        if (!(options.isAllowedImageUrl ?? ownFileImages)(d.file.url))
          throw new RichTextError(
            'RICH_TEXT_IMAGE_NOT_ALLOWED',
            '本文の画像は、この画面でアップロードしたものだけ使えます。',
            `${at}.file.url`,
          );
        return {
          ...id,
          type: 'image',
          data: {
            file: { url: d.file.url },
            caption: text(d.caption ?? '', `${at}.caption`),
            withBorder: d.withBorder ?? false,
            withBackground: d.withBackground ?? false,
            stretched: d.stretched ?? false,
          },
        };
      }
      default:
        throw new RichTextError(
          'RICH_TEXT_UNSUPPORTED_BLOCK',
          `本文に使えないブロック（${block.type.slice(0, 64)}）が含まれています。`,
          `blocks[${i}].type`,
        );
    }
  });
  return {
    ...(doc.time !== undefined ? { time: doc.time } : {}),
    ...(doc.version !== undefined ? { version: doc.version } : {}),
    blocks,
  };
}

/** The URLs of the images a document shows (to check each is a file the author may use). */
export function imageUrls(doc: RichTextDocument): string[] {
  return doc.blocks.flatMap((b) => (b.type === 'image' ? [b.data.file.url] : []));
}
