import { registerEnumType } from 'type-graphql';
import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { badInput, notFound } from '../../platform/errors.js';
import { checkId } from '../../platform/validation.js';
import { DEVICE_ROLES } from '../employees/employee.enums.js';
import { AssetKind, DeviceKind, type DeviceStatus } from './device.enums.js';
import { aggregateIdOf, DEVICE_NOUN, recordDeviceEvent } from './device.history.js';

/** A device's PIN code or password: shown on the screens only through revealSecret, which leaves a trace. */
export enum DeviceSecret {
  PIN_CODE = 'PIN_CODE',
  PASS = 'PASS',
  PIN_PW = 'PIN_PW',
}
registerEnumType(DeviceSecret, {
  name: 'DeviceSecret',
  description: 'パソコンの PIN コード / パソコンのパスワード / スマートフォンの PIN・パスワード',
});

/** Where each secret lives: its device kind, table column, field name (events, history) and label. */
const SECRET = {
  PIN_CODE: { kind: DeviceKind.COMPUTER, table: 'computer', column: 'pin_code', field: 'pinCode', label: 'PINコード' },
  PASS: { kind: DeviceKind.COMPUTER, table: 'computer', column: 'pass', field: 'pass', label: 'パスワード' },
  PIN_PW: {
    kind: DeviceKind.SMARTPHONE,
    table: 'smartphone',
    column: 'pin_pw',
    field: 'pinPw',
    label: 'PIN・パスワード',
  },
} as const;

/** Which of a device's secrets hold a value (the view says so without the values). */
export function secretsSetOf(kind: DeviceKind, view: object): DeviceSecret[] {
  const values = view as Record<string, unknown>;
  return (Object.keys(SECRET) as DeviceSecret[]).filter(
    (k) => SECRET[k].kind === kind && values[SECRET[k].field] != null && values[SECRET[k].field] !== '',
  );
}

interface Row {
  secret: string | null;
  current_user_id: number | null;
  status: DeviceStatus;
  location_id: number | null;
}

export class DeviceSecretService {
  /**
   * One secret of one device, for someone who may read the device's detail (the same rule). The
   * reveal is recorded (field name and actor, never the value) in the same transaction, so no value
   * is handed out without its trace in the device's history.
   */
  async reveal(ctx: AppContext, kind: DeviceKind, id: number, secret: DeviceSecret): Promise<string | null> {
    const user = requireUser(ctx, DEVICE_ROLES);
    const s = SECRET[secret];
    if (!s || s.kind !== kind)
      throw badInput(`${DEVICE_NOUN[kind] ?? '端末'}にはこの項目（${s?.label ?? secret}）はありません。`);
    checkId(id, DEVICE_NOUN[kind]);
    return ctx.em.transactional(async (tx) => {
      const rows: Row[] = await tx.execute(
        `select ${s.column} as secret, current_user_id, status, location_id from ${s.table} where id = ?`,
        [id],
      );
      const r = rows[0];
      if (!r) throw notFound(DEVICE_NOUN[kind]);
      await recordDeviceEvent(tx, {
        type: 'device.secret_revealed',
        aggregateId: aggregateIdOf(kind as unknown as AssetKind, id),
        actorId: user.id,
        payload: {
          field: s.field,
          device: { currentUserId: r.current_user_id, status: r.status, locationId: r.location_id },
        },
      });
      await tx.flush();
      return r.secret;
    });
  }
}
