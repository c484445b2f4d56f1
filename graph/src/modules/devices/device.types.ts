import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { EmployeeStatus } from '../employees/employee.enums.js';
import { NamedRef } from '../employees/employee.types.js';
import { AssetKind, DeviceKind, DeviceStatus } from './device.enums.js';

@ObjectType({ simpleResolvers: true, description: '端末の使用者・前使用者として表示する社員' })
export class DeviceHolder {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field(() => EmployeeStatus) status!: EmployeeStatus;
  @Field({ description: '在籍 / 退職' }) statusLabel!: string;
  @Field({ description: '退職済み（一覧の行スタイル用）' }) retired!: boolean;
}

@ObjectType({ simpleResolvers: true, description: 'Microsoft Office アカウントへの参照' })
export class OfficeAccountRef {
  @Field(() => Int) id!: number;
  @Field() account!: string;
}

@ObjectType({ simpleResolvers: true, description: '選択肢（コードと表示名）' })
export class StatusOption {
  @Field() code!: string;
  @Field() label!: string;
}

@ObjectType({ simpleResolvers: true, description: '端末画面のフォームと絞り込みの選択肢' })
export class DeviceOptions {
  @Field(() => [StatusOption]) computerStatuses!: StatusOption[];
  @Field(() => [StatusOption]) smartphoneStatuses!: StatusOption[];
  @Field(() => [StatusOption]) officeAccountStatuses!: StatusOption[];
  @Field(() => Int, { description: 'Microsoft Office アカウント1件を使えるパソコンの上限台数（行の色の基準）' })
  officeUsageLimit!: number;
}

/** Fields every held device (computer, smartphone) shows. */
@ObjectType({ simpleResolvers: true, description: '（基底クラス。スキーマには出ない）' })
export abstract class HeldDeviceView {
  @Field(() => Int) id!: number;
  @Field(() => DeviceHolder, { nullable: true, description: '使用者 (current_user)' })
  currentUser!: DeviceHolder | null;
  @Field(() => DeviceHolder, { nullable: true, description: '前使用者 (previous_user)' })
  previousUser!: DeviceHolder | null;
  @Field(() => NamedRef, { nullable: true, description: '拠点' }) location!: NamedRef | null;
  @Field(() => NamedRef, { nullable: true, description: '部署' }) department!: NamedRef | null;
  @Field(() => DeviceStatus) status!: DeviceStatus;
  @Field() statusLabel!: string;
  @Field(() => String, { nullable: true, description: '使用者の在籍状況（在籍 / 退職）。使用者なしなら null。' })
  currentUserStatus!: string | null;
  @Field({ description: '廃棄または処分済み（行スタイル）' }) isDiscarded!: boolean;
  @Field({ description: '故障（行スタイル）' }) isBroken!: boolean;
  @Field({ description: '使用者が退職済み（行スタイル）' }) currentUserRetired!: boolean;
  @Field(() => Int) version!: number;
  @Field() updatedAt!: Date;
}

@InputType()
export abstract class HeldDeviceInput {
  @Field(() => Int, {
    nullable: true,
    description: '使用者の社員ID。変更し、前使用者を変えずに送ると、元の使用者が前使用者になる。',
  })
  currentUserId?: number | null;
  @Field(() => Int, { nullable: true, description: '前使用者の社員ID' }) previousUserId?: number | null;
  @Field(() => Int, { nullable: true }) locationId?: number | null;
  @Field(() => Int, { nullable: true }) departmentId?: number | null;
  @Field(() => DeviceStatus) status!: DeviceStatus;
  @Field(() => Int, { nullable: true, description: '更新時は必須（読み込んだときの version）' }) version?: number;
}

@InputType()
export abstract class HeldDeviceFilter {
  @Field(() => Int, { nullable: true }) departmentId?: number | null;
  @Field(() => DeviceStatus, { nullable: true, description: '指定すると「廃棄を表示」に関係なくその状態だけを表示' })
  status?: DeviceStatus | null;
  @Field(() => Int, { nullable: true }) locationId?: number | null;
  @Field(() => Int, { nullable: true, description: '使用者の社員ID' }) currentUserId?: number | null;
  @Field({ nullable: true, defaultValue: false, description: '廃棄・処分済みも表示する' }) showDiscarded?: boolean;
}

@ObjectType({ simpleResolvers: true, description: '使用者・状態・拠点の変更の記録' })
export class DeviceHistoryEntry {
  @Field(() => Int) id!: number;
  @Field() changedAt!: Date;
  @Field(() => DeviceHolder, { nullable: true, description: '変更した人' }) changedBy!: DeviceHolder | null;
  @Field({ description: 'created（登録）/ edit（編集）/ returned（退職時の返却）' }) reason!: string;
  @Field(() => [String], { description: '変わった項目: currentUser / status / location' }) changed!: string[];
  @Field(() => DeviceHolder, { nullable: true }) fromUser!: DeviceHolder | null;
  @Field(() => DeviceHolder, { nullable: true }) toUser!: DeviceHolder | null;
  @Field(() => DeviceStatus, { nullable: true }) fromStatus!: DeviceStatus | null;
  @Field(() => DeviceStatus) toStatus!: DeviceStatus;
  @Field(() => NamedRef, { nullable: true }) fromLocation!: NamedRef | null;
  @Field(() => NamedRef, { nullable: true }) toLocation!: NamedRef | null;
}

@ObjectType({ simpleResolvers: true, description: '誰がいつからいつまで使っていたか' })
export class DeviceAssignment {
  @Field(() => DeviceHolder) user!: DeviceHolder;
  @Field() from!: Date;
  @Field(() => Date, { nullable: true, description: '現在も使用中なら null' }) to!: Date | null;
  @Field(() => DeviceHolder, { nullable: true, description: '割り当てた人' }) assignedBy!: DeviceHolder | null;
  @Field(() => DeviceHolder, { nullable: true, description: '割り当てを終えた人' }) endedBy!: DeviceHolder | null;
}

@ObjectType({ simpleResolvers: true, description: '端末の使用履歴' })
export class DeviceTimeline {
  @Field(() => DeviceKind) kind!: DeviceKind;
  @Field(() => Int) deviceId!: number;
  @Field(() => [DeviceAssignment], { description: '使用期間（古い順）' }) assignments!: DeviceAssignment[];
  @Field(() => [DeviceHistoryEntry], { description: '変更の記録（古い順）' }) changes!: DeviceHistoryEntry[];
}

@ObjectType({
  simpleResolvers: true,
  description: '端末・Office アカウントの登録・更新の通知（コミット済みのイベントのみ）',
})
export class DeviceChange {
  @Field({ description: 'device.computer.updated など' }) type!: string;
  @Field(() => AssetKind) kind!: AssetKind;
  @Field(() => Int, { description: '対象の ID（取り込みでは ids の先頭）' }) id!: number;
  @Field(() => [Int], { description: '対象の ID すべて（取り込みは1通知で複数台: device.computers.imported）' })
  ids!: number[];
  @Field(() => [String], { description: '変わった項目（登録時・取り込み時は空）' }) changed!: string[];
  @Field() occurredAt!: string;
}
