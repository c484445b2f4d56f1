import { Field, InputType, Int, ObjectType } from 'type-graphql';
import type { ColumnsOf, FilterArgsOf, InputsOf } from '../../lib/record/field.js';
import { filterFields, inputFields, viewFields } from '../../lib/record/graphql.js';
import { OfficeAccountStatus, OfficeRowColor, OfficeRowReason } from '../devices/device.enums.js';
import { OFFICE_ACCOUNT_FIELDS } from './office-account.fields.js';

type F = typeof OFFICE_ACCOUNT_FIELDS;

@ObjectType({ simpleResolvers: true, description: 'Microsoft Office アカウント' })
export class OfficeAccountView {
  @Field(() => Int) id!: number;
  @Field(() => OfficeAccountStatus) status!: OfficeAccountStatus;
  @Field({ description: '使用中 / 停止' }) statusLabel!: string;
  @Field(() => Int, { description: 'このアカウントに紐付くパソコンの台数（入力ではなく集計）' }) usageCount!: number;
  @Field(() => OfficeRowColor, { nullable: true, description: '行の色（usage_status）。null は通常。' })
  rowColor!: OfficeRowColor | null;
  @Field(() => String, { nullable: true, description: '行の色の理由' }) rowColorReason!: string | null;
  @Field(() => OfficeRowReason, { nullable: true, description: '行の色の理由のコード（画面が言語ごとに表示する）' })
  rowColorReasonCode!: OfficeRowReason | null;
  @Field(() => Int) version!: number;
  @Field() updatedAt!: Date;
}
export interface OfficeAccountView extends ColumnsOf<F> {}
viewFields(OfficeAccountView, OFFICE_ACCOUNT_FIELDS);

@ObjectType({ simpleResolvers: true })
export class OfficeAccountPage {
  @Field(() => [OfficeAccountView]) items!: OfficeAccountView[];
  @Field(() => Int) total!: number;
  @Field(() => Int) offset!: number;
  @Field(() => Int) limit!: number;
}

@InputType({ description: 'Microsoft Office アカウント一覧の絞り込み' })
export class OfficeAccountFilter {
  @Field(() => OfficeAccountStatus, { nullable: true }) status?: OfficeAccountStatus | null;
}
export interface OfficeAccountFilter extends FilterArgsOf<F> {}
filterFields(OfficeAccountFilter, OFFICE_ACCOUNT_FIELDS);

@InputType({ description: 'Microsoft Office アカウントの登録・更新（使用数は集計なので入力しない）' })
export class OfficeAccountInput {
  @Field(() => OfficeAccountStatus) status!: OfficeAccountStatus;
  @Field(() => Int, { nullable: true, description: '更新時は必須（読み込んだときの version）' }) version?: number;
}
export interface OfficeAccountInput extends InputsOf<F> {}
inputFields(OfficeAccountInput, OFFICE_ACCOUNT_FIELDS);
