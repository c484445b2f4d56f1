import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
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
export function decodeCursor(
  after: string | null | undefined,
  tags: readonly string[],
  parts: number,
): { tag: string; key: string[] } | null {
  if (after === null || after === undefined || after === '') return null;
  const [tag, ...key] = Buffer.from(String(after), 'base64url').toString().split('|');
  if (!tag || !tags.includes(tag) || key.length !== parts || key.some((k) => k === '')) throw badCursor();
  return { tag, key };
}

/**
 * Cursors that must not tell what they hold: a position among rows the caller may not see (the
 * search's walk stops where its budget ends, maybe on a hidden post). Sealed with AES-256-GCM under
 * a key derived from the platform's secret (the same on every instance), so such a cursor reads as
 * noise and cannot be forged; a wrong or altered one is the usual 400.
 */
export function cursorSealer(secret: Buffer, purpose: string) {
  const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `cursor:${purpose}`, 32));
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    /** The sealed text, null for no cursor; anything this sealer did not seal is a 400. */
    open(sealed: string | null | undefined): string | null {
      if (sealed === null || sealed === undefined || sealed === '') return null;
      const raw = Buffer.from(String(sealed), 'base64url');
      if (raw.length < 29) throw badCursor();
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        throw badCursor();
      }
    },
  };
}

export type CursorSealer = ReturnType<typeof cursorSealer>;
