import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { HeldDeviceFilter, HeldDeviceInput, HeldDeviceView } from '../devices/device.types.js';

@ObjectType({ simpleResolvers: true, description: 'スマートフォン' })
export class SmartphoneView extends HeldDeviceView {
  @Field({ description: '電話番号' }) phoneNumber!: string;
  @Field(() => String, { nullable: true, description: 'キャリア' }) carrier!: string | null;
  @Field(() => String, { nullable: true }) os!: string | null;
  @Field(() => Int, { nullable: true, description: '価格（円）' }) price!: number | null;
  @Field(() => String, { nullable: true, description: '交換日 YYYY-MM-DD（画面では YYYY/MM/DD）' }) exchangeDate!: string | null;
  @Field(() => String, { nullable: true, description: 'PIN・パスワード' }) pinPw!: string | null;
}

@ObjectType({ simpleResolvers: true })
export class SmartphonePage {
  @Field(() => [SmartphoneView]) items!: SmartphoneView[];
  @Field(() => Int) total!: number;
  @Field(() => Int) offset!: number;
  @Field(() => Int) limit!: number;
}

@InputType({ description: 'スマートフォン一覧の絞り込み' })
export class SmartphoneFilter extends HeldDeviceFilter {
  @Field(() => String, { nullable: true, description: '電話番号の部分一致（ハイフンの有無は問わない）' }) phoneNumber?: string | null;
  @Field(() => String, { nullable: true, description: 'キャリアの部分一致' }) carrier?: string | null;
}

@InputType({ description: 'スマートフォンの登録・更新（状態に 紛失 は使えない）' })
export class SmartphoneInput extends HeldDeviceInput {
  @Field() phoneNumber!: string;
  @Field(() => String, { nullable: true }) carrier?: string | null;
  @Field(() => String, { nullable: true }) os?: string | null;
  @Field(() => Int, { nullable: true }) price?: number | null;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD（YYYY/MM/DD も可）' }) exchangeDate?: string | null;
  @Field(() => String, { nullable: true }) pinPw?: string | null;
}
