import { ownColumns, type Described, type Fields } from './field.js';

/** The SELECT list of a kind's own columns, each under its key: `c.asset_number as "assetNumber", …` (a row then reads like the view). */
export const selectList = (alias: string, d: Described<Fields>): string =>
  ownColumns(d)
    .map((f) => `${alias}.${f.column} as "${f.key}"`)
    .join(', ');
