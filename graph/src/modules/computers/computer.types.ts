import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { HeldDeviceFilter, HeldDeviceInput, HeldDeviceView, OfficeAccountRef } from '../devices/device.types.js';

@ObjectType({ simpleResolvers: true, description: 'パソコン' })
export class ComputerView extends HeldDeviceView {
  @Field(() => String, { nullable: true, description: '管理番号（一意。Excel 取り込みのキー）' }) assetNumber!: string | null;
  @Field({ description: 'メーカー' }) maker!: string;
  @Field(() => String, { nullable: true, description: '種類 (device_type)' }) deviceType!: string | null;
  @Field(() => String, { nullable: true, description: '型番' }) model!: string | null;
  @Field(() => String, { nullable: true, description: '理由・備考' }) reason!: string | null;
  @Field(() => String, { nullable: true, description: '購入日 YYYY-MM-DD' }) purchaseDate!: string | null;
  @Field(() => String, { nullable: true, description: '導入日 YYYY-MM-DD' }) introductionDate!: string | null;
  @Field(() => OfficeAccountRef, { nullable: true, description: 'Microsoft Office アカウント (ms365)' }) officeAccount!: OfficeAccountRef | null;
  @Field(() => String, { nullable: true, description: 'PINコード' }) pinCode!: string | null;
  @Field(() => String, { nullable: true, description: 'パスワード' }) pass!: string | null;
  @Field(() => String, { nullable: true, description: 'ACアダプター' }) acAdapter!: string | null;
  @Field(() => String, { nullable: true, description: '電源ケーブル' }) powerCable!: string | null;
}

@ObjectType({ simpleResolvers: true })
export class ComputerPage {
  @Field(() => [ComputerView]) items!: ComputerView[];
  @Field(() => Int) total!: number;
  @Field(() => Int) offset!: number;
  @Field(() => Int) limit!: number;
}

@InputType({ description: 'パソコン一覧の絞り込み' })
export class ComputerFilter extends HeldDeviceFilter {
  @Field(() => String, { nullable: true, description: 'メーカーの部分一致' }) maker?: string | null;
  @Field(() => Int, { nullable: true, description: 'この Office アカウントに紐付くパソコンだけ（?ms365=）' }) officeAccountId?: number | null;
}

@InputType({ description: 'パソコンの登録・更新' })
export class ComputerInput extends HeldDeviceInput {
  @Field(() => String, { nullable: true, description: '管理番号（一意）。更新で省略すると今の値のまま、空なら消す。' }) assetNumber?: string | null;
  @Field() maker!: string;
  @Field(() => String, { nullable: true }) deviceType?: string | null;
  @Field(() => String, { nullable: true }) model?: string | null;
  @Field(() => String, { nullable: true }) reason?: string | null;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD（YYYY/MM/DD も可）' }) purchaseDate?: string | null;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD（YYYY/MM/DD も可）' }) introductionDate?: string | null;
  @Field(() => Int, { nullable: true, description: 'Microsoft Office アカウントID (ms365)' }) officeAccountId?: number | null;
  @Field(() => String, { nullable: true }) pinCode?: string | null;
  @Field(() => String, { nullable: true }) pass?: string | null;
  @Field(() => String, { nullable: true }) acAdapter?: string | null;
  @Field(() => String, { nullable: true }) powerCable?: string | null;
}
