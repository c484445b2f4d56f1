/**
 * The soak's load generator: the virtual users sign in (one session each, one after another), the
 * records they edit are created or chosen (setup, not measured), each holds one graphql-ws socket
 * with its subscription (reconnecting as the browser would), and each loops over weighted random
 * operations: lists, details, the week grid, edits with the version just read.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { DEMO_PASSWORD } from '@intranet/graph/areas';
import { ms } from '../lib/format.js';
import { hhmm, isoDate, pct, sleep, type SoakClient, type Vu } from './client.js';
import {
  COMPUTER_DETAIL,
  COMPUTERS_LIST,
  CREATE_SCHEDULE,
  DEVICE_LOGINS,
  EMPLOYEE_CHANGED,
  EMPLOYEE_DETAIL,
  EMPLOYEES_LIST,
  GRID_QUERY,
  LOGINS,
  MASTER_LOGINS,
  SCHEDULE_CHANGED,
  SCHEDULE_DETAIL,
  UPDATE_COMPUTER,
  UPDATE_EMPLOYEE,
  UPDATE_SCHEDULE,
  type Login,
  type Loose,
} from './documents.js';

/** One session per VU (the demo logins round-robin), signed in one after another. */
export async function signIn(client: SoakClient, nVus: number, log: (line: string) => void): Promise<Vu[]> {
  const vus: Vu[] = [];
  const l0 = performance.now();
  for (let n = 0; n < nVus; n++) {
    const login = LOGINS[n % LOGINS.length];
    const r = await client.request(false, 'POST', '/api/auth/login', null, { loginId: login, password: DEMO_PASSWORD });
    if (r.status !== 200)
      throw new Error(`login of VU ${n} as ${login}: HTTP ${r.status} ${r.networkError ?? r.body.slice(0, 300)}`);
    const j = JSON.parse(r.body) as {
      token: string;
      employee: { id?: number; employee_id?: number; user_id?: number };
    };
    const employeeId = Number(j.employee.id ?? j.employee.employee_id ?? j.employee.user_id);
    vus.push({
      n,
      login,
      token: j.token,
      employeeId,
      agent: client.newAgent(),
      sub: n % 2 === 0 ? 'schedule' : 'employee',
      events: 0,
      closing: false,
      reconnects: 0,
    });
  }
  log(
    `signed in: ${nVus} sessions (${LOGINS.map((l) => `${l} ×${vus.filter((v) => v.login === l).length}`).join(', ')}) in ${((performance.now() - l0) / 1000).toFixed(1)} s, one after another`,
  );
  return vus;
}

/** What the VUs edit and read: 3 schedule entries per login, 6 computers, 6 non-login employees. */
export async function prepareEdits(client: SoakClient, vus: Vu[], log: (line: string) => void) {
  const today = new Date();
  const monday = new Date(today);
  monday.setUTCDate(today.getUTCDate() - ((today.getUTCDay() + 6) % 7));
  const week = { from: isoDate(monday), to: isoDate(new Date(monday.getTime() + 6 * 86_400_000)) };
  const setupCall = async (token: string, query: string, variables: Record<string, unknown>) => {
    const r = await client.request(false, 'POST', '/graphql', token, { query, variables });
    const j = JSON.parse(r.body) as { data?: Loose; errors?: unknown };
    if (r.status !== 200 || j.errors) throw new Error(`setup: HTTP ${r.status} ${r.body.slice(0, 500)}`);
    return j.data!;
  };
  const entriesOf = new Map<Login, number[]>();
  for (const login of LOGINS) {
    const owner = vus.find((v) => v.login === login);
    if (!owner) continue;
    const ids: number[] = [];
    for (let k = 0; k < 3; k++) {
      const date = isoDate(new Date(monday.getTime() + (k % 5) * 86_400_000));
      const input = {
        title: `ソーク ${login} ${k + 1}`,
        date,
        endDate: date,
        isAllDay: false,
        startTime: '09:00',
        endTime: '10:00',
        type: 'APPOINTMENT',
        description: '耐久試験',
        syncGoogle: false,
        isPrivate: false,
        guestIds: [],
        externalGuests: [],
      };
      ids.push((await setupCall(owner.token, CREATE_SCHEDULE, { input })).createSchedule.id);
    }
    entriesOf.set(login, ids);
  }
  const admin = vus.find((v) => v.login === 'admin')!;
  const emps = (await setupCall(admin.token, EMPLOYEES_LIST, { filter: null, offset: 0, limit: 200 })).employees
    .items as { id: number; email: string | null }[];
  const employeeIds = emps.map((e) => e.id);
  const loginIds = new Set(vus.map((v) => v.employeeId));
  const editEmployees = emps
    .filter((e) => e.email && !loginIds.has(e.id))
    .slice(0, 6)
    .map((e) => ({ id: e.id, email: e.email! }));
  const comps = (await setupCall(admin.token, COMPUTERS_LIST, { filter: null, offset: 0, limit: 200 })).computers
    .items as {
    id: number;
    currentUserRetired: boolean;
    isDiscarded: boolean;
    isBroken: boolean;
    status: string;
  }[];
  const computerIds = comps.map((c) => c.id);
  const editComputers = comps
    .filter((c) => !c.currentUserRetired && !c.isDiscarded && !c.isBroken)
    .slice(0, 6)
    .map((c) => c.id);
  const departments = (await setupCall(admin.token, `query { departmentNames { id name } }`, {})).departmentNames as {
    id: number;
  }[];
  const allEntries = [...entriesOf.values()].flat();
  log(
    `data: ${employeeIds.length} employees, ${computerIds.length} computers, ${departments.length} departments; edited: schedule entries ${[...entriesOf].map(([l, ids]) => `${l} #${ids.join(',#')}`).join('; ')}, ` +
      `computers #${editComputers.join(',#')}, employees #${editEmployees.map((e) => e.id).join(',#')}; week ${week.from}..${week.to}`,
  );
  return { week, entriesOf, employeeIds, editEmployees, computerIds, editComputers, departments, allEntries };
}

export type Edits = Awaited<ReturnType<typeof prepareEdits>>;

/** One graphql-ws socket per VU (session cookie + Origin, as the browser), subscribed to scheduleChanged (this week) or employeeChanged. */
export async function openSubscriptions(
  client: SoakClient,
  url: string,
  vus: Vu[],
  week: Edits['week'],
  log: (line: string) => void,
) {
  const openSocket = (vu: Vu): Promise<void> =>
    new Promise((resolve) => {
      const s0 = performance.now();
      const ws = new WebSocket(url.replace('http', 'ws') + '/graphql', 'graphql-transport-ws', {
        headers: { cookie: `intranet_sid=${vu.token}`, origin: url },
        perMessageDeflate: false,
      });
      vu.ws = ws;
      let acked = false;
      const fail = (what: string) => {
        if (client.wsFailures.length < 200)
          client.wsFailures.push({ at: client.loadStart ? client.now() : -1, vu: vu.n, login: vu.login, what });
      };
      ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: {} })));
      ws.on('message', (d) => {
        let m: {
          type?: string;
          id?: string;
          payload?: { data?: Record<string, unknown>; errors?: unknown } | unknown[];
        };
        try {
          m = JSON.parse(d.toString());
        } catch {
          return fail(`unparsable frame ${d.toString().slice(0, 200)}`);
        }
        if (m.type === 'connection_ack') {
          acked = true;
          vu.subscribedMs = performance.now() - s0;
          ws.send(
            JSON.stringify(
              vu.sub === 'schedule'
                ? {
                    id: '1',
                    type: 'subscribe',
                    payload: { operationName: 'ScheduleChanged', query: SCHEDULE_CHANGED, variables: week },
                  }
                : {
                    id: '1',
                    type: 'subscribe',
                    payload: { operationName: 'EmployeeChanged', query: EMPLOYEE_CHANGED, variables: {} },
                  },
            ),
          );
          resolve();
        } else if (m.type === 'next') {
          const p = m.payload as { data?: Record<string, unknown>; errors?: unknown };
          if (p?.errors) fail(`error in next: ${JSON.stringify(p.errors).slice(0, 400)}`);
          else vu.events++;
        } else if (m.type === 'error') fail(`error frame: ${JSON.stringify(m.payload).slice(0, 400)}`);
        else if (m.type === 'complete') fail('subscription completed by the server');
        else if (m.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
      });
      ws.on('error', (e) => fail(`socket error: ${e.message}`));
      ws.on('close', (code, reason) => {
        if (vu.closing) return;
        fail(`closed unexpectedly: ${code} ${reason.toString()}${acked ? '' : ' (before connection_ack)'}`);
        if (!acked) resolve();
        // The browser would reconnect: so does the VU, after a second.
        vu.reconnects++;
        setTimeout(() => void (!vu.closing && openSocket(vu)), 1000);
      });
    });
  const w0 = performance.now();
  await Promise.all(vus.map((v) => openSocket(v)));
  const wsOpenMs = vus
    .map((v) => v.subscribedMs ?? NaN)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  log(
    `subscriptions: ${vus.filter((v) => v.sub === 'schedule').length} scheduleChanged + ${vus.filter((v) => v.sub === 'employee').length} employeeChanged sockets in ${((performance.now() - w0) / 1000).toFixed(1)} s (connect→ack p50 ${ms(pct(wsOpenMs, 0.5))} max ${ms(wsOpenMs[wsOpenMs.length - 1])} ms)`,
  );
  await sleep(1000); // subscribed before the first change
}

/** One weighted operation of a VU's loop; `logins`: only those logins do it. */
export type Op = { w: number; run: (vu: Vu) => Promise<unknown>; logins?: Login[] };

/** The weighted operations (the soak's own and `extra`), by login, and the count of saves that succeeded (each fans out to the subscribers). */
export function operations(client: SoakClient, d: Edits, extra: Op[] = []) {
  const { week, entriesOf, employeeIds, editEmployees, computerIds, editComputers, departments, allEntries } = d;
  const rnd = (n: number) => Math.floor(Math.random() * n);
  const pick = <T>(a: T[]) => a[rnd(a.length)];
  const editPause = () => sleep(100 + rnd(300));
  const counters = { scheduleSaves: 0, employeeSaves: 0, computerSaves: 0 };

  const editSchedule = async (vu: Vu, via: 'gql' | 'rest') => {
    const id = pick(entriesOf.get(vu.login)!);
    const d = await client.gql(vu, 'detail.schedule.gql', SCHEDULE_DETAIL, { id });
    if (!d.data) return;
    const s = d.data.schedule as {
      version: number;
      title: string;
      date: string;
      startTime: string;
      description: string | null;
    };
    await editPause();
    const start =
      8 * 60 + (((Number(s.startTime.slice(0, 2)) * 60 + Number(s.startTime.slice(3, 5)) - 8 * 60) / 15 + 1) % 32) * 15; // next slot, 08:00–15:45
    if (via === 'gql') {
      const input = {
        title: s.title,
        date: s.date,
        endDate: s.date,
        isAllDay: false,
        startTime: hhmm(start),
        endTime: hhmm(start + 60),
        type: 'APPOINTMENT',
        description: s.description,
        syncGoogle: false,
        isPrivate: false,
        guestIds: [],
        externalGuests: [],
        version: s.version,
      };
      const r = await client.gql(vu, 'edit.schedule.gql', UPDATE_SCHEDULE, { id, input });
      if (r.outcome === 'ok') counters.scheduleSaves++;
    } else {
      const body = {
        title: s.title,
        date: s.date,
        end_date: s.date,
        is_all_day: 0,
        start_time: hhmm(start),
        end_time: hhmm(start + 60),
        type: 'APPOINTMENT',
        description: s.description,
        syncGoogle: false,
        is_my_self: 0,
        guest_id: [],
        other_guest: '',
        version: s.version,
      };
      const r = await client.rest(vu, 'edit.schedule.rest', 'PUT', `/api/schedules/${id}`, body);
      if (r.outcome === 'ok') counters.scheduleSaves++;
    }
  };
  const editComputer = async (vu: Vu) => {
    const id = pick(editComputers);
    const d = await client.gql(vu, 'detail.computer.gql', COMPUTER_DETAIL, { id });
    if (!d.data) return;
    const c = d.data.computer as Loose;
    await editPause();
    const input = {
      assetNumber: c.assetNumber,
      maker: c.maker,
      deviceType: c.deviceType,
      model: c.model,
      status: c.status,
      reason: c.reason,
      purchaseDate: c.purchaseDate,
      introductionDate: c.introductionDate,
      pinCode: String(1000 + rnd(9000)),
      pass: c.pass,
      acAdapter: c.acAdapter,
      powerCable: c.powerCable,
      currentUserId: c.currentUser?.id ?? null,
      previousUserId: c.previousUser?.id ?? null,
      departmentId: c.department?.refId ?? null,
      locationId: c.location?.refId ?? null,
      officeAccountId: c.officeAccount?.id ?? null,
      version: c.version,
    };
    const r = await client.gql(vu, 'edit.computer.gql', UPDATE_COMPUTER, { id, input });
    if (r.outcome === 'ok') counters.computerSaves++;
  };
  const editEmployee = async (vu: Vu) => {
    const target = pick(editEmployees);
    const d = await client.gql(vu, 'detail.employee.gql', EMPLOYEE_DETAIL, { id: target.id });
    if (!d.data) return;
    const e = d.data.employee as Loose;
    await editPause();
    const [local, domain] = target.email.split('@');
    // Always a different address (an unchanged save is no new version and no event).
    const suffix = (Number(/\+soak(\d)@/.exec(String(e.email))?.[1] ?? -1) + 1) % 10;
    const input = {
      name: e.name,
      email: `${local}+soak${suffix}@${domain}`,
      loginId: e.loginId,
      role: e.role,
      status: e.status,
      locationId: e.location?.refId ?? null,
      version: e.version,
    };
    const r = await client.gql(vu, 'edit.employee.gql', UPDATE_EMPLOYEE, { id: target.id, input });
    if (r.outcome === 'ok') counters.employeeSaves++;
  };

  const ops: Op[] = [
    ...extra,
    {
      w: 12,
      run: (vu) =>
        client.gql(vu, 'list.employees.gql', EMPLOYEES_LIST, {
          filter: rnd(3) === 0 ? { departmentId: pick(departments).id } : null,
          offset: rnd(2) * 25,
          limit: 25,
        }),
    },
    {
      w: 8,
      run: (vu) => client.rest(vu, 'list.employees.rest', 'GET', `/api/employees?offset=${rnd(2) * 25}&limit=25`),
    },
    {
      w: 10,
      logins: DEVICE_LOGINS,
      run: (vu) =>
        client.gql(vu, 'list.computers.gql', COMPUTERS_LIST, { filter: null, offset: rnd(2) * 25, limit: 25 }),
    },
    {
      w: 6,
      logins: DEVICE_LOGINS,
      run: (vu) => client.rest(vu, 'list.computers.rest', 'GET', `/api/computers?offset=${rnd(2) * 25}&limit=25`),
    },
    { w: 6, run: (vu) => client.gql(vu, 'detail.employee.gql', EMPLOYEE_DETAIL, { id: pick(employeeIds) }) },
    { w: 4, run: (vu) => client.rest(vu, 'detail.employee.rest', 'GET', `/api/employees/${pick(employeeIds)}`) },
    {
      w: 5,
      logins: DEVICE_LOGINS,
      run: (vu) => client.gql(vu, 'detail.computer.gql', COMPUTER_DETAIL, { id: pick(computerIds) }),
    },
    { w: 4, run: (vu) => client.rest(vu, 'detail.schedule.rest', 'GET', `/api/schedules/${pick(allEntries)}`) },
    {
      w: 15,
      run: (vu) =>
        client.gql(vu, 'grid', GRID_QUERY, {
          from: week.from,
          to: week.to,
          departmentId: rnd(3) === 0 ? pick(departments).id : null,
          name: null,
          offset: rnd(3) === 0 ? 25 : 0,
          limit: 25,
        }),
    },
    { w: 6, run: (vu) => editSchedule(vu, 'gql') },
    { w: 6, run: (vu) => editSchedule(vu, 'rest') },
    { w: 6, logins: DEVICE_LOGINS, run: editComputer },
    { w: 3, logins: MASTER_LOGINS, run: editEmployee },
  ];
  const opsOf = new Map(LOGINS.map((l) => [l, ops.filter((o) => !o.logins || o.logins.includes(l))]));
  const choose = (vu: Vu) => {
    const list = opsOf.get(vu.login)!;
    let x = Math.random() * list.reduce((a, o) => a + o.w, 0);
    for (const o of list) if ((x -= o.w) < 0) return o;
    return list[list.length - 1];
  };
  return { choose, counters };
}
