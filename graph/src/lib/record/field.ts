import type { z } from 'zod';

/**
 * How a field's value is stored and carried: text, a calendar date (YYYY-MM-DD text), a whole number
 * (a kind's own columns, derived wholesale); a reference to another record by id, or a code of an
 * enum (their other facets are stated by the field's own entry: see the kinds' descriptions).
 */
export type Codec = 'text' | 'date' | 'int' | 'ref' | 'enum';

/**
 * A list filter a field offers: a case-insensitive partial match on its text, one referenced record
 * by id (both under the field's own names), or "from today to N days from today" on its date (as
 * `<key>WithinDays` in GraphQL, `<rest>_within_days` on `/api`).
 */
export type FieldFilter =
  | { kind: 'contains'; description: string }
  | { kind: 'equals'; description: string }
  | { kind: 'withinDays'; description: string; maxDays: number };

/** The GraphQL argument of a field's filter. */
export const filterArg = (f: { key: string; filter?: FieldFilter }): string =>
  f.filter?.kind === 'withinDays' ? `${f.key}WithinDays` : f.key;
/** The `/api` query parameter of a field's filter. */
export const filterParam = (f: { rest: string; filter?: FieldFilter }): string =>
  f.filter?.kind === 'withinDays' ? `${f.rest}_within_days` : f.rest;

/**
 * One field of a record kind, stated once: its column, its names in GraphQL (the key) and on `/api`,
 * its Japanese label (the form's, the export's column header, the import's column, field errors),
 * its rule (the form, `/api` and the import alike), how it is carried (codec) and whether it may be
 * empty. What else the channels say of it (descriptions, export width, events, a filter) is here too.
 */
export interface FieldSpec<R extends z.ZodType = z.ZodType> {
  codec: Codec;
  label: string;
  rule: R;
  /** False for a required field (never null once saved). */
  nullable: boolean;
  /** The SQL column (default: the key in snake_case). */
  column?: string;
  /** The `/api` name (default: the column). */
  rest?: string;
  /** GraphQL description of the field in views (default: the label). */
  description?: string;
  /** GraphQL description of the field in inputs. */
  inputDescription?: string;
  /** varchar(n) of the column. */
  maxLength?: number;
  /** The unique constraint on the column, by name (a clash is named as a field error). */
  unique?: string;
  /** False: never written to a file or an event (PIN codes, passwords). Default true. */
  exported?: boolean;
  /** The export's column width (characters). */
  width?: number;
  /** Part of the created/updated events' snapshot (their contract lists these; see schema/events). */
  event?: boolean;
  filter?: FieldFilter;
  /** Declared in GraphQL by a base class the kinds share (the held-device fields). */
  inherited?: boolean;
  /** The column's SQL type where the codec does not say it (an enum's type name). */
  sqlType?: string;
}

/** A field spec with its key, column and `/api` name settled. */
export type Field<R extends z.ZodType = z.ZodType, K extends string = string> = FieldSpec<R> & {
  key: K;
  column: string;
  rest: string;
  exported: boolean;
  event: boolean;
};

export type Fields = Record<string, FieldSpec>;
export type Described<F extends Fields> = { [K in keyof F & string]: Field<F[K]['rule'], K> & F[K] };

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Settles each field's key, column (the key in snake_case unless given) and `/api` name (the column unless given). */
export function describeFields<F extends Fields>(fields: F): Described<F> {
  const out: Record<string, Field> = {};
  for (const [key, f] of Object.entries(fields)) {
    const column = f.column ?? snake(key);
    out[key] = { ...f, key, column, rest: f.rest ?? column, exported: f.exported ?? true, event: f.event ?? false };
  }
  return out as Described<F>;
}

/** The fields of a description as a list, in their order. */
export const fieldList = <F extends Fields>(d: Described<F>): Field[] => Object.values(d) as Field[];

/** The fields a kind stores in its own columns (text, dates, numbers): the ones derived wholesale. */
export const ownColumns = <F extends Fields>(d: Described<F>): Field[] =>
  fieldList(d).filter((f) => f.codec === 'text' || f.codec === 'date' || f.codec === 'int');

/** The SQL type of a field's column (casts of bound values). */
export const sqlTypeOf = (f: Field): string => f.sqlType ?? (f.codec === 'ref' || f.codec === 'int' ? 'int' : f.codec);

/** The value a field holds once saved (its rule's output; null when empty). */
export type ValueOf<F extends FieldSpec> = Exclude<z.output<F['rule']>, undefined>;
/** A record's values by key, as the description states them (what a view shows of these fields). */
export type ValuesOf<F extends Fields> = { -readonly [K in keyof F]: ValueOf<F[K]> };
/** The rules by key (a zod shape: z.object(rulesOf(d)) is the record's form). */
export type RulesOf<F extends Fields> = { [K in keyof F]: F[K]['rule'] };

export function rulesOf<F extends Fields>(d: Described<F>): RulesOf<F> {
  return Object.fromEntries(fieldList(d).map((f) => [f.key, f.rule])) as RulesOf<F>;
}

/** The filter arguments a description's fields offer, by argument name. */
export type FilterArgsOf<F extends Fields> = {
  -readonly [
    K in keyof F & string as F[K] extends { filter: { kind: 'withinDays' } }
      ? `${K}WithinDays`
      : F[K] extends { filter: object }
        ? K
        : never
  ]?: F[K] extends {
    filter: { kind: 'contains' };
  }
    ? string | null
    : number | null;
};

type OwnCodec = 'text' | 'date' | 'int';
/** The values of a kind's own columns by key (what its entity and its view hold of them). */
export type ColumnsOf<F extends Fields> = {
  -readonly [K in keyof F & string as F[K]['codec'] extends OwnCodec ? K : never]: ValueOf<F[K]>;
};
/** What a kind's GraphQL input carries of the description (own columns and references by id; a base class declares the inherited ones). */
export type InputsOf<F extends Fields> = {
  -readonly [
    K in keyof F & string as F[K] extends { inherited: true } ? never : F[K]['codec'] extends 'enum' ? never : K
  ]?: ValueOf<F[K]> | null;
};
/** The fields that go into files (export and import): all but those marked `exported: false`. */
export type ExportedOf<F extends Fields> = {
  -readonly [K in keyof F & string as F[K] extends { exported: false } ? never : K]: ValueOf<F[K]>;
};
