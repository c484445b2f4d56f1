import type { Request } from 'express';
import { fieldList, filterArg, filterParam, type Described, type Fields } from '../../lib/record/field.js';
import { badInput } from '../../platform/errors.js';
import type { BodyField } from '../../platform/rest.js';
import { queryId } from '../../platform/validation.js';
import { idOrNull } from '../departments/named-ref.js';
import type { XlsxColumn } from '../../platform/xlsx-export.js';
import type { DeviceFieldSpec } from './device.fields.js';
import type { Where } from '../../platform/list-query.js';

/**
 * What the register's channels derive from a kind's description (its Fields table): the export's
 * columns, the `/api` record and body, the list filters, the entity's values. Fields that are not
 * plain columns (references, the status) say their own part (DeviceFieldSpec).
 */
type D = Described<Fields>;
const specs = (d: D) => fieldList(d) as (ReturnType<typeof fieldList>[number] & DeviceFieldSpec)[];

/** The export's columns: ID, then each field's (its label and value; none for fields never exported). */
export function exportColumns<V extends { id: number }>(d: D): XlsxColumn<V>[] {
  const columns: XlsxColumn<V>[] = [{ header: 'ID', width: 8, value: (v) => v.id }];
  for (const f of specs(d)) {
    if (f.columns) columns.push(...(f.columns as XlsxColumn<V>[]));
    else if (f.exported)
      columns.push({
        header: f.label,
        width: f.width,
        date: f.codec === 'date' || undefined,
        value: (v) => (v as Record<string, never>)[f.key],
      });
  }
  return columns;
}

/** The `/api` names of the fields a kind's own record carries (the held-device ones are toApiHeld's), with their values. */
export function apiFields(d: D): (view: object) => Record<string, unknown> {
  const fields = specs(d).filter((f) => !f.inherited);
  return (view) => {
    const out: Record<string, unknown> = {};
    for (const f of fields) {
      if (f.api) Object.assign(out, f.api(view));
      else out[f.rest] = (view as Record<string, unknown>)[f.key];
    }
    return out;
  };
}

/** How `/api` reads each field from a request body (a BodyTable's fields, `version` beside them). */
export function bodyFields(d: D): Record<string, BodyField> {
  const out: Record<string, BodyField> = Object.fromEntries(specs(d).map((f) => [f.key, f.body ?? f.rest]));
  out.version = { from: 'version', read: (v) => idOrNull(v) ?? undefined };
  return out;
}

/** A whole number of days from a query parameter: absent or '' → undefined; else 0..max, or BAD_USER_INPUT. */
export function queryDays(v: unknown, field: string, label: string, max: number): number | undefined {
  if (v === undefined || v === '') return undefined;
  const n = typeof v === 'string' && /^\d{1,6}$/.test(v) ? Number(v) : NaN;
  if (!(n <= max)) throw daysRefused(field, label, max);
  return n;
}
const daysRefused = (field: string, label: string, max: number) =>
  badInput(`${label}の日数は0〜${max}の整数で指定してください。`, [{ field, message: `0〜${max}` }]);

/** The list filters the fields offer, read from `/api` query parameters. */
export function queryFilters(q: Request['query'], d: D): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of specs(d)) {
    const filter = f.filter;
    if (!filter) continue;
    const param = filterParam(f);
    const v = q[param];
    if (filter.kind === 'contains') out[filterArg(f)] = typeof v === 'string' ? v : undefined;
    else if (filter.kind === 'equals') out[filterArg(f)] = queryId(v, param);
    else out[filterArg(f)] = queryDays(v, param, f.label, filter.maxDays);
  }
  return out;
}

/** The list filters the fields offer, as SQL on the listed table (alias `a`). */
export function fieldWhere(w: Where, a: string, d: D, f: object): Where {
  const given = f as Record<string, unknown>;
  for (const field of specs(d)) {
    const filter = field.filter;
    if (!filter) continue;
    const column = `${a}.${field.column}`;
    const arg = filterArg(field);
    const v = given[arg];
    if (filter.kind === 'contains') w.contains(column, v as string | null | undefined, arg, field.label);
    else if (filter.kind === 'equals') w.equals(column, v, arg);
    else if (v !== undefined && v !== null) {
      if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > filter.maxDays)
        throw daysRefused(arg, field.label, filter.maxDays);
      // Today as the company counts it (Asia/Tokyo), whatever the server's zone.
      w.add(
        `${column} between (now() at time zone 'Asia/Tokyo')::date and (now() at time zone 'Asia/Tokyo')::date + ?::int`,
        v,
      );
    }
  }
  return w;
}

/** The writable fields as the entity holds them, keyed like the input (references as ids). */
export function entityValues<V>(d: D): (e: object) => V {
  const fields = specs(d);
  return (e) => {
    const out: Record<string, unknown> = {};
    for (const f of fields)
      out[f.key] = f.entity
        ? f.entity.value(e as Record<string, unknown>)
        : ((e as Record<string, unknown>)[f.key] ?? null);
    return out as V;
  };
}

/** Input values → entity properties (references as ids, which MikroORM takes for relations; left out → null). */
export function entityData(d: D): (data: Record<string, unknown>) => Record<string, unknown> {
  const fields = specs(d);
  return (data) => {
    const out: Record<string, unknown> = {};
    for (const f of fields) out[f.entity?.key ?? f.key] = data[f.key] ?? null;
    return out;
  };
}

/** The fields an event's snapshot carries (the contract in schema/events lists them), from the entity. */
export function eventValues(d: D): (e: object) => Record<string, unknown> {
  const values = entityValues<Record<string, unknown>>(d);
  const keys = specs(d)
    .filter((f) => f.event)
    .map((f) => f.key);
  return (e) => {
    const all = values(e);
    return Object.fromEntries(keys.map((k) => [k, all[k]]));
  };
}

/** The fields an update keeps when its input leaves them out (kept() in the description). */
export function keptKeys<F extends Fields>(d: Described<F>): (keyof F & string)[] {
  return specs(d)
    .filter((f) => f.keptWhenOmitted)
    .map((f) => f.key as keyof F & string);
}
