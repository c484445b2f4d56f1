import { registerEnumType } from 'type-graphql';

export enum ScheduleType {
  TASK = 'TASK',
  REMOTE = 'REMOTE',
  APPOINTMENT = 'APPOINTMENT',
}

/** The spec's type values and their labels. */
export const TYPE_LABEL: Record<ScheduleType, string> = {
  TASK: 'タスク',
  REMOTE: 'リモート',
  APPOINTMENT: '打ち合わせ',
};
export const TYPE_API: Record<ScheduleType, string> = { TASK: 'task', REMOTE: 'remote', APPOINTMENT: 'appointment' };
export const typeFromApi = (v: unknown): ScheduleType | unknown =>
  (Object.keys(TYPE_API) as ScheduleType[]).find((k) => TYPE_API[k] === v || k === v || TYPE_LABEL[k] === v) ?? v;

export enum GuestResponse {
  PENDING = 'PENDING',
  ACCEPTED = 'ACCEPTED',
  DECLINED = 'DECLINED',
}

registerEnumType(ScheduleType, { name: 'ScheduleType', description: 'タスク / リモート / 打ち合わせ' });
registerEnumType(GuestResponse, { name: 'GuestResponse', description: '未回答 / 参加 / 不参加' });
