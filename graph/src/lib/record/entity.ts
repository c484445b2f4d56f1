import { Property } from '@mikro-orm/core';
import { ownColumns, type Described, type Fields } from './field.js';

const TYPE = { text: 'string', date: 'date', int: 'integer' } as const;

/**
 * The MikroORM properties of a kind's own columns, as its description states them (the class
 * declares the TypeScript side by merging an interface of ValuesOf the description). Applied to the
 * entity class after its own decorators: MikroORM keeps them under the class it first saw.
 */
export function entityColumns(entity: abstract new (...args: never[]) => unknown, d: Described<Fields>): void {
  for (const f of ownColumns(d)) {
    Property({
      type: TYPE[f.codec as keyof typeof TYPE],
      fieldName: f.column,
      length: f.maxLength,
      nullable: f.nullable,
      unique: f.unique,
    })(entity.prototype as object, f.key);
  }
}
