import { badInput } from './errors.js';

/**
 * Opaque page cursors: a tag naming the list and the key of the last item of the previous page,
 * `|`-joined and base64url-encoded. Clients pass `nextCursor` back as it is; anything else is a 400.
 */
export const CURSOR_MESSAGE = 'カーソルが正しくありません（前のページの nextCursor を指定してください）。';

export const badCursor = () => badInput(CURSOR_MESSAGE, [{ field: 'after', message: 'nextCursor の値' }]);

export function encodeCursor(tag: string, key: readonly (string | number)[]): string {
  return Buffer.from([tag, ...key].join('|')).toString('base64url');
}

/**
 * A cursor's tag (one of `tags`: a list, or a part of one) and its key's parts, null for none; a
 * cursor of another list or a malformed one is a 400. The caller checks each part's form.
 */
export function decodeCursor(after: string | null | undefined, tags: readonly string[], parts: number): { tag: string; key: string[] } | null {
  if (after === null || after === undefined || after === '') return null;
  const [tag, ...key] = Buffer.from(String(after), 'base64url').toString().split('|');
  if (!tag || !tags.includes(tag) || key.length !== parts || key.some((k) => k === '')) throw badCursor();
  return { tag, key };
}
