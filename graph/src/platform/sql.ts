import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Runs SQL with real bind parameters (`?` placeholders, sent as `$n` values) in `em`'s transaction
 * when it has one. MikroORM's `em.execute` inlines parameters into the SQL text, escaping them
 * character by character in JavaScript; for set-based statements (the event backbone's JSON document
 * of a thousand events, an import chunk's megabyte of rows) that escaping dominated their cost.
 */
export async function execBound<T = Record<string, unknown>>(
  em: EntityManager,
  sql: string,
  params: unknown[],
): Promise<T[]> {
  const query = em.getKnex().raw(sql, params as never[]);
  const trx = em.getTransactionContext();
  if (trx) query.transacting(trx);
  const res = (await query) as { rows: T[] };
  return res.rows;
}

/** A PostgreSQL array literal of values that need no quoting (uuids, numbers). */
export function pgArray(values: readonly (string | number)[]): string {
  return `{${values.join(',')}}`;
}

/** A PostgreSQL text[] literal of any strings (each quoted, `"` and `\` escaped), bound as one parameter. */
export function pgTextArray(values: readonly string[]): string {
  return `{${values.map((s) => `"${s.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}
