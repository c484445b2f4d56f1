import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { GuestResponse, ScheduleType } from './schedule.enums.js';

@ObjectType({ simpleResolvers: true })
export class ScheduleGuest {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field(() => GuestResponse) response!: GuestResponse;
}

@ObjectType({ simpleResolvers: true })
export class ScheduleOwner {
  @Field(() => Int) id!: number;
  @Field() name!: string;
}

@ObjectType({ simpleResolvers: true, description: '予定。他人の非公開の予定は busyOnly（時間帯のみ、内容なし）。' })
export class ScheduleView {
  @Field(() => Int) id!: number;
  @Field(() => ScheduleOwner) owner!: ScheduleOwner;
  @Field({ description: '他人の非公開の予定: 時間帯だけが見える' }) busyOnly!: boolean;
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field({ description: 'YYYY-MM-DD' }) date!: string;
  @Field({ description: 'YYYY-MM-DD' }) endDate!: string;
  @Field() isAllDay!: boolean;
  @Field(() => String, { nullable: true, description: 'HH:mm:ss（終日なら null）' }) startTime!: string | null;
  @Field(() => String, { nullable: true }) endTime!: string | null;
  @Field(() => ScheduleType, { nullable: true }) type!: ScheduleType | null;
  @Field(() => String, { nullable: true }) meetLink!: string | null;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field() syncGoogle!: boolean;
  @Field() isPrivate!: boolean;
  @Field(() => [ScheduleGuest]) guests!: ScheduleGuest[];
  @Field(() => [String]) externalGuests!: string[];
  @Field(() => GuestResponse, { nullable: true, description: '閲覧者がゲストなら、その回答' })
  myResponse!: GuestResponse | null;
  @Field({ description: '閲覧者が編集・削除できる（作成者のみ）' }) canEdit!: boolean;
  @Field({ description: '閲覧者が参加・不参加を回答できる（ゲスト）' }) canRespond!: boolean;
  @Field(() => Int) version!: number;
}

@ObjectType({ simpleResolvers: true })
export class SchedulePerson {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) departmentName!: string | null;
  @Field(() => [ScheduleView], { description: 'この人が作成者またはゲスト（不参加以外）の予定' })
  entries!: ScheduleView[];
}

@ObjectType({ simpleResolvers: true, description: '人×日のグリッド（週または1日）' })
export class ScheduleGrid {
  @Field() from!: string;
  @Field() to!: string;
  @Field({ description: 'MM月DD日 〜 MM月DD日' }) label!: string;
  @Field(() => [SchedulePerson]) people!: SchedulePerson[];
  @Field(() => Int, { description: '条件に合う人数（ページ分割前）' }) totalPeople!: number;
  @Field(() => Int) offset!: number;
  @Field(() => Int) limit!: number;
}

@ObjectType({ simpleResolvers: true })
export class SchedulePage {
  @Field(() => [ScheduleView]) items!: ScheduleView[];
  @Field(() => Int) total!: number;
  @Field(() => Int) offset!: number;
  @Field(() => Int) limit!: number;
}

@ObjectType({ simpleResolvers: true, description: '重なっている予定がある参加者' })
export class BusyConflict {
  @Field(() => Int) employeeId!: number;
  @Field() employeeName!: string;
  @Field(() => Int) scheduleId!: number;
  @Field({ description: '非公開の予定なら「予定あり」' }) title!: string;
  @Field() date!: string;
  @Field(() => String, { nullable: true }) startTime!: string | null;
  @Field(() => String, { nullable: true }) endTime!: string | null;
}

@ObjectType({ simpleResolvers: true, description: '予定の変更通知（閲覧者に見える形で）' })
export class ScheduleChange {
  @Field({ description: 'created / updated / deleted / responded' }) kind!: string;
  @Field(() => Int) scheduleId!: number;
  @Field(() => ScheduleView, { nullable: true, description: '削除なら null' }) schedule!: ScheduleView | null;
  @Field({ description: '影響する期間（YYYY-MM-DD）' }) from!: string;
  @Field() to!: string;
  @Field(() => [Int], { description: 'グリッドで行が変わる社員（作成者とゲスト、変更前も含む）' })
  employeeIds!: number[];
}

@InputType()
export class ScheduleInput {
  @Field({ description: '件名' }) title!: string;
  @Field({ description: '開始日（YYYY-MM-DD）' }) date!: string;
  @Field(() => String, { nullable: true, description: '終了日（省略時は date と同じ）' }) endDate?: string | null;
  @Field({ defaultValue: false, description: '終日' }) isAllDay!: boolean;
  @Field(() => String, { nullable: true, description: '開始時刻（HH:mm、15分単位）' }) startTime?: string | null;
  @Field(() => String, { nullable: true, description: '終了時刻（HH:mm）' }) endTime?: string | null;
  @Field(() => ScheduleType, { defaultValue: ScheduleType.TASK, description: '種類' }) type!: ScheduleType;
  @Field(() => String, { nullable: true, description: '会議のリンク（リモートのときだけ保存される）' })
  meetLink?: string | null;
  @Field(() => String, { nullable: true, description: '内容' }) description?: string | null;
  @Field({ defaultValue: true, description: 'Google カレンダーに同期する' }) syncGoogle!: boolean;
  @Field({ defaultValue: false, description: '非公開（作成者以外には時間帯だけ）' }) isPrivate!: boolean;
  @Field(() => [Int], { defaultValue: [], description: '参加者（社員 ID）' }) guestIds!: number[];
  @Field(() => [String], { defaultValue: [], description: '社外ゲストのメールアドレス' }) externalGuests!: string[];
  @Field(() => Int, { nullable: true, description: 'バージョン（更新時は必須）' }) version?: number;
}
