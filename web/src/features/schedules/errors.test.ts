import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';
import { describe, expect, test } from 'vitest';
import { tJa } from '../../test/translate';
import { describeError } from './errors';

const gqlError = (extensions: Record<string, unknown>, message = 'サーバーのメッセージ') =>
  new CombinedGraphQLErrors({ data: null, errors: [{ message, extensions }] });

describe('describeError: one failed call, read once', () => {
  test("a validation failure: the server's Japanese message and one message per field (nested paths belong to their field)", () => {
    const err = gqlError(
      {
        code: 'BAD_USER_INPUT',
        fieldErrors: [
          { field: 'title', message: 'タイトルを入力してください。' },
          { field: 'externalGuests.2', message: 'メールアドレスの形式が正しくありません。' },
          { field: 'externalGuests.3', message: '二つ目は表示しない' },
          { field: 42, message: '名前のない項目は無視' },
        ],
      },
      '入力内容に誤りがあります。',
    );
    expect(describeError(err, 'ja', tJa)).toEqual({
      code: 'BAD_USER_INPUT',
      message: '入力内容に誤りがあります。',
      fieldErrors: {
        title: 'タイトルを入力してください。',
        externalGuests: 'メールアドレスの形式が正しくありません。',
      },
    });
  });

  test('in English the catalogue speaks, not the server (whose messages are Japanese)', () => {
    const t = (key: string) => `en:${key}`;
    const p = describeError(
      gqlError({ code: 'FORBIDDEN', fieldErrors: [{ field: 'title', message: '日本語' }] }),
      'en',
      t as never,
    );
    expect(p.message).toBe('en:schedules.error.forbidden');
    expect(p.fieldErrors).toEqual({ title: 'en:schedules.error.field' });
  });

  test('a conflict carries the saved entry, who saved it and when', () => {
    const current = { id: 5, version: 3, title: '朝会' };
    const p = describeError(
      gqlError({ code: 'CONFLICT', current, updatedBy: '佐藤 花子', updatedAt: '2026-11-27T01:00:00Z' }),
      'ja',
      tJa,
    );
    expect(p.code).toBe('CONFLICT');
    expect(p.conflict).toEqual({
      current,
      updatedBy: '佐藤 花子',
      updatedBySelf: false,
      updatedAt: '2026-11-27T01:00:00Z',
    });
  });

  test('a conflict without details still says so, with nulls', () => {
    const p = describeError(gqlError({ code: 'CONFLICT' }), 'ja', tJa);
    expect(p.conflict).toEqual({ current: null, updatedBy: null, updatedBySelf: false, updatedAt: null });
  });

  test("an internal error never shows the server's text; an unknown code falls back to the generic message", () => {
    expect(describeError(gqlError({ code: 'INTERNAL_SERVER_ERROR' }, 'stack trace'), 'ja', tJa).message).toBe(
      'サーバーでエラーが発生しました。',
    );
    expect(describeError(gqlError({}), 'ja', tJa).code).toBe('INTERNAL_SERVER_ERROR');
  });

  test('an HTTP failure and a network failure have their own messages', () => {
    const server = new ServerError('bad gateway', { response: new Response('', { status: 502 }), bodyText: '' });
    expect(describeError(server, 'ja', tJa)).toEqual({
      code: 'SERVER',
      message: 'サーバーでエラーが発生しました。',
      fieldErrors: {},
    });
    expect(describeError(new TypeError('Failed to fetch'), 'ja', tJa)).toEqual({
      code: 'NETWORK',
      message: 'サーバーに接続できませんでした。',
      fieldErrors: {},
    });
  });
});
