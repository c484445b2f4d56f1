import { Field, InputType, Int, ObjectType } from 'type-graphql';
import type { ColumnsOf, FilterArgsOf, InputsOf } from '../../lib/record/field.js';
import { filterFields, inputFields, viewFields } from '../../lib/record/graphql.js';
import { HeldDeviceFilter, HeldDeviceInput, HeldDeviceView } from '../devices/device.types.js';
import { SMARTPHONE_FIELDS } from './smartphone.fields.js';

type F = typeof SMARTPHONE_FIELDS;

/** A smartphone as GraphQL shows it: the held-device fields and its own columns (SMARTPHONE_FIELDS). */
@ObjectType({ simpleResolvers: true, description: 'スマートフォン' })
export class SmartphoneView extends HeldDeviceView {}
export interface SmartphoneView extends ColumnsOf<F> {}
viewFields(SmartphoneView, SMARTPHONE_FIELDS);

@ObjectType({ simpleResolvers: true })
export class SmartphonePage {
  @Field(() => [SmartphoneView]) items!: SmartphoneView[];
  @Field(() => Int) total!: number;
  @Field(() => Int) offset!: number;
  @Field(() => Int) limit!: number;
}

@InputType({ description: 'スマートフォン一覧の絞り込み' })
export class SmartphoneFilter extends HeldDeviceFilter {
  @Field(() => String, { nullable: true, description: '電話番号の部分一致（ハイフンの有無は問わない）' }) phoneNumber?:
    string | null;
}
export interface SmartphoneFilter extends FilterArgsOf<F> {}
filterFields(SmartphoneFilter, SMARTPHONE_FIELDS);

@InputType({ description: 'スマートフォンの登録・更新（状態に 紛失 は使えない）' })
export class SmartphoneInput extends HeldDeviceInput {}
export interface SmartphoneInput extends InputsOf<F> {}
inputFields(SmartphoneInput, SMARTPHONE_FIELDS);
