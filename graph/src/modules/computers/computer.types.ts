import { Field, InputType, Int, ObjectType } from 'type-graphql';
import type { ColumnsOf, FilterArgsOf, InputsOf } from '../../lib/record/field.js';
import { filterFields, inputFields, viewFields } from '../../lib/record/graphql.js';
import { HeldDeviceFilter, HeldDeviceInput, HeldDeviceView, OfficeAccountRef } from '../devices/device.types.js';
import { COMPUTER_FIELDS } from './computer.fields.js';

type F = typeof COMPUTER_FIELDS;

/** A computer as GraphQL shows it: the held-device fields, its own columns (COMPUTER_FIELDS) and its Office account. */
@ObjectType({ simpleResolvers: true, description: 'パソコン' })
export class ComputerView extends HeldDeviceView {
  @Field(() => OfficeAccountRef, { nullable: true, description: 'Microsoft Office アカウント (ms365)' })
  officeAccount!: OfficeAccountRef | null;
}
export interface ComputerView extends ColumnsOf<F> {}
viewFields(ComputerView, COMPUTER_FIELDS);

@ObjectType({ simpleResolvers: true })
export class ComputerPage {
  @Field(() => [ComputerView]) items!: ComputerView[];
  @Field(() => Int) total!: number;
  @Field(() => Int) offset!: number;
  @Field(() => Int) limit!: number;
}

@InputType({ description: 'パソコン一覧の絞り込み' })
export class ComputerFilter extends HeldDeviceFilter {}
export interface ComputerFilter extends FilterArgsOf<F> {}
filterFields(ComputerFilter, COMPUTER_FIELDS);

@InputType({ description: 'パソコンの登録・更新' })
export class ComputerInput extends HeldDeviceInput {}
export interface ComputerInput extends InputsOf<F> {}
inputFields(ComputerInput, COMPUTER_FIELDS);
