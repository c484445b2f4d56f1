import { Field as GraphQLField, Int } from 'type-graphql';
import { fieldList, filterArg, ownColumns, type Described, type Field, type Fields } from './field.js';

const scalar = (f: Field) => (f.codec === 'int' || f.codec === 'ref' ? Int : String);

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- type-graphql's decorators take any class
type Class = Function;

/**
 * The GraphQL fields of a kind's view (ObjectType) for its own columns, as its description states
 * them. The class declares the TypeScript side by merging an interface of ValuesOf the description.
 */
export function viewFields(view: Class, d: Described<Fields>): void {
  for (const f of ownColumns(d))
    GraphQLField(() => scalar(f), { nullable: f.nullable, description: f.description ?? f.label })(
      view.prototype,
      f.key,
    );
}

/** The GraphQL fields of a kind's input (InputType): its own columns and its references by id (but those a base class declares). */
export function inputFields(input: Class, d: Described<Fields>): void {
  for (const f of fieldList(d)) {
    if (f.codec === 'enum' || f.inherited) continue;
    GraphQLField(() => scalar(f), { nullable: f.nullable, description: f.inputDescription })(input.prototype, f.key);
  }
}

/** The GraphQL fields of a kind's list filter (InputType): each field's filter under its argument name. */
export function filterFields(filter: Class, d: Described<Fields>): void {
  for (const f of fieldList(d)) {
    if (!f.filter) continue;
    GraphQLField(() => (f.filter!.kind === 'contains' ? String : Int), {
      nullable: true,
      description: f.filter.description,
    })(filter.prototype, filterArg(f));
  }
}
