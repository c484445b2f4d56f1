import type { z } from 'zod';
import type { FieldFilter, FieldSpec } from '../../lib/record/field.js';
import type { BodyField } from '../../platform/rest.js';
import { idOrNull, namedId } from '../departments/named-ref.js';
import { codeOf, DEVICE_STATUS_LABEL, DeviceStatus } from './device.enums.js';
import type { XlsxColumn } from '../../platform/xlsx-export.js';
import type { HeldDeviceView } from './device.types.js';
import { date as dateRule, keptText, optionalText, ref, status, text as requiredText } from './device.validation.js';

/**
 * A field of a device kind's description (see lib/record/field.ts), with what the register's
 * channels need of the fields that are not plain columns: references and the status.
 */
export interface DeviceFieldSpec<R extends z.ZodType = z.ZodType> extends FieldSpec<R> {
  /** The export's columns for the field (default: one, headed by its label, its value as the view has it). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a column of any kind's view
  columns?: readonly XlsxColumn<any>[];
  /** How `/api` reads it from a request body (default: its `/api` name, as given). */
  body?: BodyField;
  /** Its part of the `/api` record, from the view (default: its `/api` name and the view's value). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any kind's view
  api?(view: any): Record<string, unknown>;
  /** The entity's property it is written to (a relation takes the id), and how the entity holds it. */
  entity?: { key: string; value(e: Record<string, unknown>): unknown };
  /** Its value in a new record when nothing sets it (default: null; '' for required text). */
  empty?: unknown;
  /** An update that leaves it out keeps the stored value (kept()). */
  keptWhenOmitted?: boolean;
}

type Options = Omit<DeviceFieldSpec, 'codec' | 'label' | 'rule' | 'nullable' | 'maxLength'>;

/** Required text (at most `max` characters). */
export const text = <const O extends Options>(label: string, max: number, o: O = {} as O) =>
  ({ codec: 'text', label, rule: requiredText(label, max), nullable: false, maxLength: max, ...o }) as const;

/** Optional text: '' and null store null. */
export const optional = <const O extends Options>(label: string, max: number, o: O = {} as O) =>
  ({ codec: 'text', label, rule: optionalText(label, max), nullable: true, maxLength: max, ...o }) as const;

/** Optional text an update may leave out to keep what is stored ('' or null clears it). */
export const kept = <const O extends Options>(label: string, max: number, o: O = {} as O) =>
  ({
    codec: 'text',
    label,
    rule: keptText(label, max),
    nullable: true,
    maxLength: max,
    keptWhenOmitted: true,
    ...o,
  }) as const;

/** An optional calendar date: YYYY-MM-DD (YYYY/MM/DD accepted). */
export const date = <const O extends Options>(label: string, o: O = {} as O) =>
  ({
    codec: 'date',
    label,
    rule: dateRule(label),
    nullable: true,
    description: `${label} YYYY-MM-DD`,
    inputDescription: 'YYYY-MM-DD（YYYY/MM/DD も可）',
    ...o,
  }) as const;

/** An optional whole number with its own rule. */
export const int = <R extends z.ZodType, const O extends Options>(label: string, rule: R, o: O = {} as O) =>
  ({ codec: 'int', label, rule, nullable: true, ...o }) as const;

/** List filter: a case-insensitive partial match. */
export const contains = (description: string) => ({ kind: 'contains', description }) as const satisfies FieldFilter;

/** List filter: one referenced record, by id. */
export const equals = (description: string) => ({ kind: 'equals', description }) as const satisfies FieldFilter;

/** List filter: dates from today (Asia/Tokyo) to N days from today, N from 0 to `maxDays`. */
export const withinDays = (description: string, maxDays = 3650) =>
  ({ kind: 'withinDays', description, maxDays }) as const satisfies FieldFilter;

const idOf = (r: unknown) => (r as { id: number } | null | undefined)?.id ?? null;
/** A reference to an employee, location or department, as computers and smartphones hold them (a relation by id). */
const relation = (key: string) => ({ key, value: (e: Record<string, unknown>) => idOf(e[key]) });

/**
 * The fields computers and smartphones share: who holds the device, where, for which department, in
 * what state. Their GraphQL types are the held-device base classes (device.types.ts); their view
 * is heldView, their `/api` record toApiHeld.
 */
export const heldFields = (statuses: readonly DeviceStatus[]) =>
  ({
    currentUserId: {
      codec: 'ref',
      label: '使用者',
      rule: ref('使用者'),
      nullable: true,
      inherited: true,
      rest: 'current_user',
      body: { from: 'current_user', read: idOrNull },
      entity: relation('currentUser'),
      columns: [
        { header: '使用者ID', width: 10, value: (d: HeldDeviceView) => d.currentUser?.id },
        { header: '使用者', value: (d: HeldDeviceView) => d.currentUser?.name },
        { header: '使用者の在籍状況', value: (d: HeldDeviceView) => d.currentUserStatus },
      ],
    },
    previousUserId: {
      codec: 'ref',
      label: '前使用者',
      rule: ref('前使用者'),
      nullable: true,
      inherited: true,
      rest: 'previous_user',
      body: { from: 'previous_user', read: idOrNull },
      entity: relation('previousUser'),
      columns: [{ header: '前使用者', value: (d: HeldDeviceView) => d.previousUser?.name }],
    },
    locationId: {
      codec: 'ref',
      label: '拠点',
      rule: ref('拠点'),
      nullable: true,
      inherited: true,
      body: { from: ['location_id', 'location'], read: (_v, b, ctx) => namedId(ctx, 'location', b) },
      entity: relation('location'),
      columns: [{ header: '拠点', width: 10, value: (d: HeldDeviceView) => d.location?.name }],
    },
    departmentId: {
      codec: 'ref',
      label: '部署',
      rule: ref('部署'),
      nullable: true,
      inherited: true,
      body: { from: ['department_id', 'department'], read: (_v, b, ctx) => namedId(ctx, 'department', b) },
      entity: relation('department'),
      columns: [{ header: '部署', value: (d: HeldDeviceView) => d.department?.name }],
    },
    status: {
      codec: 'enum',
      sqlType: 'device_status',
      label: '状態',
      rule: status(statuses),
      nullable: false,
      inherited: true,
      empty: DeviceStatus.NORMAL,
      body: { from: 'status', read: (v) => codeOf(DEVICE_STATUS_LABEL, v) },
      columns: [{ header: '状態', width: 10, value: (d: HeldDeviceView) => d.statusLabel }],
    },
  }) as const satisfies Record<string, DeviceFieldSpec>;
