import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { formatGraphqlError as format } from './graphql-guards.js';

/** A driver error as MikroORM passes it on: the SQL text (with the values) as message, the SQLSTATE as code. */
const driverError = (code: string) =>
  Object.assign(
    new Error(
      `insert into "smartphone" ("phone_number") values ('+1-4706-1553441180500') - value too long for type character varying(20)`,
    ),
    { code },
  );

describe('GraphQL error formatting', () => {
  it("a database error that refused the caller's value is BAD_USER_INPUT with our message, never the SQL", () => {
    const err = new GraphQLError(driverError('22001').message, { originalError: driverError('22001') });
    const out = format(
      { message: err.message, path: ['createSmartphone'], extensions: { code: 'INTERNAL_SERVER_ERROR' } },
      err,
    );
    expect(out.message).toBe('入力が長すぎます。');
    expect(out.extensions).toEqual({ code: 'BAD_USER_INPUT', fieldErrors: [] });
    expect(out.path).toEqual(['createSmartphone']);
  });

  it('any other database error is INTERNAL_SERVER_ERROR without its text', () => {
    const err = new GraphQLError('boom', { originalError: driverError('42P01') });
    const out = format({ message: 'relation "x" does not exist', extensions: { code: 'INTERNAL_SERVER_ERROR' } }, err);
    expect(out).toEqual({
      message: 'サーバーでエラーが発生しました。',
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
      path: undefined,
      locations: undefined,
    });
  });

  it('a connection PostgreSQL dropped is SERVICE_UNAVAILABLE, also when it surfaces as the ended transaction', () => {
    const dropped = new GraphQLError('x', { originalError: driverError('57P01') });
    expect(format({ message: 'x', extensions: {} }, dropped).extensions).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      retryAfterSeconds: 1,
    });
    const ended = new Error('Transaction query already complete, run with DEBUG=knex:tx for more info', {
      cause: new Error('Connection terminated unexpectedly'),
    });
    expect(format({ message: 'x', extensions: {} }, ended).extensions?.code).toBe('SERVICE_UNAVAILABLE');
    // A transaction ended by anything else (a bug) stays internal.
    const misuse = new Error('Transaction query already complete, run with DEBUG=knex:tx for more info');
    expect(format({ message: 'x', extensions: {} }, misuse).extensions?.code).toBe('INTERNAL_SERVER_ERROR');
  });

  it('a row a write referred to, deleted meanwhile (23503), is NOT_FOUND, not a 500', () => {
    const gone = new GraphQLError('x', { originalError: driverError('23503') });
    const out = format(
      { message: 'insert or update on table "blog_comment" violates foreign key constraint', extensions: {} },
      gone,
    );
    expect(out.extensions).toEqual({ code: 'NOT_FOUND' });
    expect(out.message).toMatch(/削除された可能性があります/);
  });
});
