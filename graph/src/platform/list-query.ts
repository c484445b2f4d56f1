import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from './errors.js';
import { checkPage } from './pagination.js';
import { execBound } from './sql.js';
import { checkSearchText } from './validation.js';

/** Escapes LIKE's wildcards (`\\`, `%`, `_`), so a search for "50%" finds the text "50%". */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The ILIKE pattern "contains `text`" with its wildcards escaped. */
export const containsPattern = (text: string) => `%${escapeLike(text)}%`;

/** A WHERE clause built from filters, with its parameters in order. */
export class Where {
  readonly parts: string[] = [];
  readonly params: unknown[] = [];

  add(sql: string, ...params: unknown[]): this {
    this.parts.push(sql);
    this.params.push(...params);
    return this;
  }

  /** Case-insensitive "contains" on a text column; `normalize` maps both sides (e.g. digits only). */
  contains(
    column: string,
    value: string | null | undefined,
    field: string,
    label: string,
    normalize?: (sql: string) => string,
  ): this {
    checkSearchText(value, field, label);
    const text = value?.trim();
    if (!text) return this;
    return this.add(`${normalize ? normalize(column) : column} ilike ?`, containsPattern(text));
  }

  equals(column: string, value: unknown, field: string): this {
    if (value === undefined || value === null) return this;
    if (!Number.isInteger(value) || (value as number) < 1)
      throw badInput(`${field} が正しくありません。`, [{ field, message: '正の整数' }]);
    return this.add(`${column} = ?`, value);
  }

  get sql(): string {
    return this.parts.length ? `where ${this.parts.join(' and ')}` : '';
  }
}

/**
 * One kind's list: the SELECT list, the listed table with its alias (whose id orders it), and the
 * joins the SELECT list needs. Filters (Where) may only read the listed table (they run without the
 * joins).
 */
export interface ListSql {
  select: string;
  table: string;
  alias: string;
  joins: string;
}

export const fromOf = (q: ListSql) => `from ${q.table} ${q.joins}`;

/**
 * One page in one query, ordered by id (registration order, stable while editing). The filter and
 * the count (count(*) over()) read only the listed table; the joins and the SELECT list run for the
 * page's rows only. (With the count over the joined rows, a filter matching 2,000 of 20,000
 * computers built all 2,000 joined rows for a page of 50: bench/computers.)
 * The filter values go as bind parameters (execBound), not inlined into the statement's text by
 * MikroORM (a JavaScript pass over the whole statement per request; bench/computers).
 */
export async function fetchPage<R>(em: EntityManager, q: ListSql, where: Where, offset: unknown, limit: unknown) {
  const page = checkPage(offset, limit);
  const a = q.alias;
  const rows = await execBound<R & { total: string }>(
    em,
    `select ${q.select}, page_.total
       from (select ${a}.id, count(*) over() as total from ${q.table} ${where.sql} order by ${a}.id limit ? offset ?) page_
       join ${q.table} on ${a}.id = page_.id ${q.joins}
      order by ${a}.id`,
    [...where.params, page.limit, page.offset],
  );
  let total = rows.length ? Number(rows[0].total) : 0;
  if (!rows.length && page.offset > 0) {
    const [c] = await execBound<{ total: string }>(
      em,
      `select count(*) as total from ${q.table} ${where.sql}`,
      where.params,
    );
    total = Number(c.total);
  }
  return { rows: rows as R[], total, offset: page.offset, limit: page.limit };
}

/** Every matching row, in batches by id (keyset), for exports of a whole filtered list. */
export async function* fetchAll<R extends { id: number }>(
  em: EntityManager,
  q: ListSql,
  where: Where,
  batch = 500,
): AsyncGenerator<R> {
  let after = 0;
  for (;;) {
    const cond = [...where.parts, `${q.alias}.id > ?`].join(' and ');
    const rows: R[] = await em.execute(`select ${q.select} ${fromOf(q)} where ${cond} order by ${q.alias}.id limit ?`, [
      ...where.params,
      after,
      batch,
    ]);
    yield* rows;
    if (rows.length < batch) return;
    after = rows[rows.length - 1].id;
  }
}
