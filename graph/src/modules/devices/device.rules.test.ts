import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '../../test/db.js';
import { seedDemoCompany } from '../../db/seeders/demo-company.js';
import { contentDisposition } from '../../platform/xlsx-export.js';
import { assignments, historyFromEvent } from './device.history.js';
import { fetchAll, fetchPage } from '../../platform/list-query.js';
import { heldJoins, heldSelect, heldWhere } from './device.queries.js';
import type { DeviceHistoryEntry } from './device.types.js';

describe('export file names', () => {
  it('gives an ASCII filename and an RFC 5987 filename*', () => {
    expect(contentDisposition("パソコン一覧 (1)'*.xlsx", 'computers "1".xlsx')).toBe(
      `attachment; filename="computers _1_.xlsx"; filename*=UTF-8''%E3%83%91%E3%82%BD%E3%82%B3%E3%83%B3%E4%B8%80%E8%A6%A7%20%281%29%27%2A.xlsx`,
    );
  });
});

describe('history from events', () => {
  const env = (payload: Record<string, unknown>, aggregateId = 'computer:7') => ({
    id: randomUUID(),
    type: 'device.computer.updated',
    aggregateType: 'device',
    aggregateId,
    occurredAt: '2026-01-01T00:00:00.000Z',
    actorId: 3,
    payload,
    version: 1,
  });
  const device = { currentUserId: 2, status: 'NORMAL', locationId: 1 };
  it('a creation, a change of user/status/location, and nothing for other edits or Office accounts', () => {
    expect(historyFromEvent(env({ device }))).toMatchObject({
      kind: 'COMPUTER',
      deviceId: 7,
      reason: 'created',
      changed: ['currentUser', 'status', 'location'],
      before: null,
      actorId: 3,
    });
    expect(
      historyFromEvent(env({ device, before: { ...device, currentUserId: 1 }, reason: 'returned', changed: [] })),
    ).toMatchObject({
      reason: 'returned',
      changed: ['currentUser'],
    });
    expect(historyFromEvent(env({ device, before: device, reason: 'edit', changed: ['model'] }))).toBeNull();
    expect(
      historyFromEvent(env({ device: { id: 1, account: 'a', status: 'IN_USE', version: 1 } }, 'office_account:1')),
    ).toBeNull();
  });
  it('periods of use follow the changes of current user', () => {
    const who = (id: number) => ({
      id,
      name: `社員${id}`,
      status: 'ACTIVE' as never,
      statusLabel: '在籍',
      retired: false,
    });
    const at = (d: number) => new Date(Date.UTC(2026, 0, d));
    const e = (d: number, changed: string[], to: number | null, reason = 'edit'): DeviceHistoryEntry => ({
      id: d,
      changedAt: at(d),
      changedBy: who(99),
      reason,
      changed,
      toUser: to === null ? null : who(to),
      fromUser: null,
      fromStatus: null,
      toStatus: 'NORMAL' as never,
      fromLocation: null,
      toLocation: null,
    });
    const periods = assignments([
      e(1, ['currentUser', 'status'], 1, 'created'),
      e(2, ['status'], 1),
      e(3, ['currentUser'], 2),
      e(4, ['currentUser'], null),
      e(5, ['currentUser'], 3),
    ]);
    expect(periods.map((p) => [p.user.id, p.from.getUTCDate(), p.to?.getUTCDate() ?? null])).toEqual([
      [1, 1, 3],
      [2, 3, 4],
      [3, 5, null],
    ]);
  });
});

describe('keyset batches for exports', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    await db.orm.em.fork().transactional((tx) => seedDemoCompany(tx));
  });
  afterAll(async () => db?.close());

  it('the demo register has every status, devices held by retired staff, shared Office accounts and a history for every device', async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of ad-hoc test SQL, read by column name
    const q = (sql: string): Promise<any[]> => db.orm.em.fork().getConnection().execute(sql);
    expect((await q(`select distinct status from computer order by 1`)).map((r) => r.status)).toEqual([
      'NORMAL',
      'REPLACE',
      'BROKEN',
      'DISCARDED',
      'LOST',
      'DISPOSED',
    ]);
    expect((await q(`select distinct status from smartphone order by 1`)).map((r) => r.status)).toEqual([
      'NORMAL',
      'REPLACE',
      'BROKEN',
      'DISCARDED',
      'DISPOSED',
    ]);
    const [retired] =
      await q(`select (select count(*)::int from computer c join employee e on e.id = c.current_user_id where e.status = 'RETIRED') as pcs,
      (select count(*)::int from smartphone s join employee e on e.id = s.current_user_id where e.status = 'RETIRED') as phones`);
    expect(retired.pcs).toBeGreaterThanOrEqual(3);
    expect(retired.phones).toBeGreaterThanOrEqual(2);
    const usage = (
      await q(`select count(*)::int as n from computer where office_account_id is not null group by office_account_id`)
    ).map((r) => r.n);
    expect(usage).toContain(5);
    expect(Math.max(...usage)).toBeGreaterThan(5);
    expect(await q(`select count(*)::int as n from office_account where status = 'SUSPENDED'`)).toEqual([{ n: 2 }]);
    const [h] =
      await q(`select (select count(*)::int from computer c where not exists (select 1 from device_history h where h.device_kind = 'COMPUTER' and h.device_id = c.id and h.reason = 'created')) as pcs_without,
      (select count(*)::int from smartphone s where not exists (select 1 from device_history h where h.device_kind = 'SMARTPHONE' and h.device_id = s.id and h.reason = 'created')) as phones_without,
      (select count(*)::int from device_history where reason = 'edit') as edits`);
    expect(h).toMatchObject({ pcs_without: 0, phones_without: 0 });
    expect(h.edits).toBeGreaterThan(20);
    // the history ends where each device is now
    const off =
      await q(`select count(*)::int as n from computer c join lateral (select * from device_history h where h.device_kind = 'COMPUTER' and h.device_id = c.id order by changed_at desc, id desc limit 1) last on true
      where last.to_user_id is distinct from c.current_user_id or last.to_status <> c.status`);
    expect(off).toEqual([{ n: 0 }]);
  });

  it('small batches return exactly the rows one query would, in id order', async () => {
    const em = db.orm.em.fork();
    const q = { alias: 'c', select: heldSelect('c'), table: 'computer c', joins: heldJoins('c') };
    const collect = async (batch: number) => {
      const ids: number[] = [];
      for await (const r of fetchAll<{ id: number }>(
        em,
        q,
        heldWhere('c', { showDiscarded: false }, ['NORMAL'] as never),
        batch,
      ))
        ids.push(r.id);
      return ids;
    };
    const once = await collect(1000);
    expect(once.length).toBeGreaterThan(20);
    expect(await collect(7)).toEqual(once);
    expect(await collect(once.length)).toEqual(once);
  });

  it('a page (filter and count on the table, joins for the page only) equals the one-query answer', async () => {
    const em = db.orm.em.fork();
    const q = { alias: 'c', select: heldSelect('c'), table: 'computer c', joins: heldJoins('c') };
    for (const f of [{ showDiscarded: true }, { showDiscarded: false }, { status: 'NORMAL' as never }]) {
      for (const [offset, limit] of [
        [0, 10],
        [10, 10],
        [0, 200],
        [100_000, 10],
      ]) {
        const w = heldWhere('c', f, ['NORMAL', 'BROKEN', 'DISCARDED', 'DISPOSED', 'LOST', 'REPLACE'] as never);
        const page = await fetchPage<{ id: number; current_user_name: string | null; department_name: string | null }>(
          em,
          q,
          w,
          offset,
          limit,
        );
        const all: { id: number; current_user_name: string | null; department_name: string | null }[] =
          await em.execute(`select ${q.select} from ${q.table} ${q.joins} ${w.sql} order by c.id`, w.params);
        expect(page.total).toBe(all.length);
        expect(page.rows.map((r) => [r.id, r.current_user_name, r.department_name])).toEqual(
          all.slice(offset, offset + limit).map((r) => [r.id, r.current_user_name, r.department_name]),
        );
      }
    }
  });
});
