import { seedDemoProfiles } from './demo-profiles.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { hashPassword } from '../../modules/auth/password.js';
import { seedDemoSchedules } from './demo-schedules.js';
import { seedDemoBlog } from './demo-blog.js';
import type { FileStorage } from '../../lib/files/index.js';

export const DEMO_PASSWORD = 'intranet-demo';

export const DEMO_LOGINS = [
  { loginId: 'admin', role: '管理者' },
  { loginId: 'sysadmin', role: 'システム管理者' },
  { loginId: 'devadmin', role: 'デバイス管理者' },
  { loginId: 'staff', role: '一般' },
] as const;

const LOCATIONS = ['東京', '姫路', '大阪'];
const DEPARTMENTS = ['開発', '人材', '営業', '総務', '経理', '品質保証', 'マーケティング'];
const SURNAMES = [
  '佐藤',
  '鈴木',
  '高橋',
  '田中',
  '伊藤',
  '渡辺',
  '山本',
  '中村',
  '小林',
  '加藤',
  '吉田',
  '山田',
  '佐々木',
  '山口',
  '松本',
  '井上',
  '木村',
  '林',
  '斎藤',
  '清水',
  '山崎',
  '森',
  '池田',
  '橋本',
  '阿部',
  '石川',
  '山下',
  '中島',
  '前田',
  '藤田',
];
const GIVEN = [
  '翔太',
  '美咲',
  '大輔',
  '陽菜',
  '健一',
  '結衣',
  '拓海',
  '彩花',
  '直樹',
  '真由美',
  '亮',
  '愛',
  '和也',
  '由香',
  '誠',
  '奈々',
  '隆',
  'さくら',
  '悠斗',
  '千尋',
  '浩二',
  '恵',
  '達也',
  '麻衣',
  '剛',
  '優子',
  '雄介',
  '舞子',
  '修',
  '瞳',
];
const ROMAJI_SURNAMES = [
  'sato',
  'suzuki',
  'takahashi',
  'tanaka',
  'ito',
  'watanabe',
  'yamamoto',
  'nakamura',
  'kobayashi',
  'kato',
  'yoshida',
  'yamada',
  'sasaki',
  'yamaguchi',
  'matsumoto',
  'inoue',
  'kimura',
  'hayashi',
  'saito',
  'shimizu',
  'yamazaki',
  'mori',
  'ikeda',
  'hashimoto',
  'abe',
  'ishikawa',
  'yamashita',
  'nakajima',
  'maeda',
  'fujita',
];
const ROMAJI_GIVEN = [
  'shota',
  'misaki',
  'daisuke',
  'hina',
  'kenichi',
  'yui',
  'takumi',
  'ayaka',
  'naoki',
  'mayumi',
  'ryo',
  'ai',
  'kazuya',
  'yuka',
  'makoto',
  'nana',
  'takashi',
  'sakura',
  'yuto',
  'chihiro',
  'koji',
  'megumi',
  'tatsuya',
  'mai',
  'tsuyoshi',
  'yuko',
  'yusuke',
  'maiko',
  'osamu',
  'hitomi',
];

export interface SeedSummary {
  employees: number;
  schedules: number;
  departments: number;
  locations: number;
}

/**
 * A believable Japanese demo company: 62 employees across 7 departments and the three offices,
 * every role present, some retired staff, department managers. Deterministic, so screenshots and
 * tests can rely on it. Later areas add their demo data here.
 */
export async function seedDemoCompany(em: EntityManager, opts: { files?: FileStorage } = {}): Promise<SeedSummary> {
  const conn = em;
  const hash = await hashPassword(DEMO_PASSWORD);
  const locIds: number[] = [];
  for (const [i, name] of LOCATIONS.entries()) {
    const [row] = await conn.execute(`insert into location (name, sort_order) values (?, ?) returning id`, [name, i]);
    locIds.push(row.id);
  }
  const deptIds: number[] = [];
  for (const [i, name] of DEPARTMENTS.entries()) {
    const [row] = await conn.execute(`insert into department (name, sort_order) values (?, ?) returning id`, [name, i]);
    deptIds.push(row.id);
  }
  type Seed = { name: string; login: string; email: string; role: string; status: string; dept: number; loc: number };
  const people: Seed[] = [
    {
      name: '山田 太郎',
      login: 'admin',
      email: 'taro.yamada@example.co.jp',
      role: 'ADMIN',
      status: 'ACTIVE',
      dept: deptIds[3],
      loc: locIds[0],
    },
    {
      name: '鈴木 花子',
      login: 'sysadmin',
      email: 'hanako.suzuki@example.co.jp',
      role: 'SYSTEM_ADMIN',
      status: 'ACTIVE',
      dept: deptIds[0],
      loc: locIds[0],
    },
    {
      name: '高橋 健太',
      login: 'devadmin',
      email: 'kenta.takahashi@example.co.jp',
      role: 'DEVICE_ADMIN',
      status: 'ACTIVE',
      dept: deptIds[0],
      loc: locIds[1],
    },
    {
      name: '田中 美咲',
      login: 'staff',
      email: 'misaki.tanaka@example.co.jp',
      role: 'GENERAL',
      status: 'ACTIVE',
      dept: deptIds[2],
      loc: locIds[2],
    },
  ];
  for (let i = 0; people.length < 62; i++) {
    const s = (i * 7) % SURNAMES.length;
    const g = (i * 11 + 3 + Math.floor(i / SURNAMES.length)) % GIVEN.length;
    const login = `${ROMAJI_GIVEN[g]}.${ROMAJI_SURNAMES[s]}`;
    const role = i % 23 === 5 ? 'DEVICE_ADMIN' : i % 29 === 7 ? 'SYSTEM_ADMIN' : i % 31 === 11 ? 'ADMIN' : 'GENERAL';
    people.push({
      name: `${SURNAMES[s]} ${GIVEN[g]}`,
      login,
      email: `${login}@example.co.jp`,
      role,
      status: i % 9 === 8 ? 'RETIRED' : 'ACTIVE',
      dept: deptIds[i % deptIds.length],
      loc: locIds[i % 5 === 0 ? 1 : i % 3 === 0 ? 2 : 0],
    });
  }
  const ids: number[] = [];
  for (const p of people) {
    const [row] = await conn.execute(
      `insert into employee (name, email, login_id, password_hash, role, status, department_id, location_id)
       values (?, ?, ?, ?, ?, ?, ?, ?) returning id`,
      [p.name, p.email, p.login, hash, p.role, p.status, p.dept, p.loc],
    );
    ids.push(row.id);
  }
  // Each department's manager: its first active member.
  await conn.execute(`update department d set manager_id = (
      select min(e.id) from employee e where e.department_id = d.id and e.status = 'ACTIVE' and e.role <> 'GENERAL'
    )`);
  await conn.execute(`update department d set manager_id = (
      select min(e.id) from employee e where e.department_id = d.id and e.status = 'ACTIVE'
    ) where manager_id is null`);
  const schedules = await seedDemoSchedules(em);
  await seedDevices(em);
  await seedDemoBlog(em, { files: opts.files });
  await seedDemoProfiles(em);
  return { employees: ids.length, departments: deptIds.length, locations: locIds.length, schedules };
}

export async function isDatabaseEmpty(em: EntityManager): Promise<boolean> {
  const [row] = await em.execute(`select count(*)::int as n from employee`);
  return row.n === 0;
}

/**
 * The IT-asset register of the demo company: 14 Office accounts (one used by exactly 5 computers,
 * one by 7, one tied to a broken computer, one suspended but still in use), 40 computers and 24
 * smartphones in every status, a few still held by retired staff, each with its assignment history.
 */
export async function seedDevices(
  em: EntityManager,
): Promise<{ computers: number; smartphones: number; officeAccounts: number }> {
  const people: { id: number; status: string; department_id: number | null; location_id: number | null }[] =
    await em.execute(
      `select id, status, department_id, location_id from employee where login_id not in ('admin', 'sysadmin', 'devadmin', 'staff') order by id`,
    );
  const [{ id: actor }] = await em.execute(`select id from employee where login_id = 'devadmin'`);
  const active = people.filter((p) => p.status === 'ACTIVE');
  const retired = people.filter((p) => p.status === 'RETIRED');
  const day = (i: number) => new Date(Date.UTC(2021, 3, 1) + i * 37 * 86_400_000).toISOString().slice(0, 10);
  const history = async (
    kind: string,
    id: number,
    at: string,
    changed: string[],
    from: [number | null, string | null, number | null],
    to: [number | null, string, number | null],
  ) =>
    em.execute(
      `insert into device_history (device_kind, device_id, changed_at, actor_id, reason, changed, from_user_id, to_user_id, from_status, to_status, from_location_id, to_location_id)
       values (?, ?, ?::date + time '10:00', ?, ?, ?::text[], ?, ?, ?, ?, ?, ?)`,
      [
        kind,
        id,
        at,
        actor,
        from[1] === null ? 'created' : 'edit',
        `{${changed.join(',')}}`,
        from[0],
        to[0],
        from[1],
        to[1],
        from[2],
        to[2],
      ],
    );
  /** One device's users and its story: created for the first user, maybe handed over, maybe a status change. */
  const story = async (
    kind: string,
    id: number,
    i: number,
    s: { user: number | null; prev: number | null; status: string; loc: number | null },
  ) => {
    const first = s.prev ?? s.user;
    await history(
      kind,
      id,
      day(i),
      ['currentUser', 'status', 'location'],
      [null, null, null],
      [first, 'NORMAL', s.loc],
    );
    if (s.prev !== null && s.user !== s.prev)
      await history(kind, id, day(i + 9), ['currentUser'], [s.prev, 'NORMAL', s.loc], [s.user, 'NORMAL', s.loc]);
    if (s.status !== 'NORMAL') {
      const user = s.prev !== null && s.user !== s.prev ? s.user : first;
      const changed = user !== s.user ? ['currentUser', 'status'] : ['status'];
      await history(kind, id, day(i + 14), changed, [user, 'NORMAL', s.loc], [s.user, s.status, s.loc]);
    }
  };

  const accounts: number[] = [];
  for (let i = 0; i < 14; i++) {
    const [row] = await em.execute(
      `insert into office_account (account, status, updated_by_id) values (?, ?, ?) returning id`,
      [`m365-${String(i + 1).padStart(2, '0')}@example.co.jp`, i >= 12 ? 'SUSPENDED' : 'IN_USE', actor],
    );
    accounts.push(row.id);
  }
  const MAKERS = [
    ['Dell', 'Latitude 5440'],
    ['HP', 'ProBook 450 G10'],
    ['Lenovo', 'ThinkPad X1 Carbon'],
    ['Apple', 'MacBook Pro 14'],
    ['富士通', 'LIFEBOOK U9313'],
    ['NEC', 'VersaPro VKT44'],
    ['Panasonic', "Let's note SV1"],
    ['VAIO', 'VAIO Pro PK'],
  ];
  const PC_STATUS: Record<number, string> = {
    13: 'BROKEN',
    14: 'REPLACE',
    21: 'BROKEN',
    26: 'REPLACE',
    30: 'BROKEN',
    34: 'DISCARDED',
    35: 'DISCARDED',
    36: 'LOST',
    37: 'LOST',
    38: 'DISPOSED',
    39: 'DISPOSED',
  };
  const account = (i: number) =>
    i < 5
      ? accounts[0]
      : i < 12
        ? accounts[1]
        : i < 14
          ? accounts[2]
          : i === 14
            ? accounts[3]
            : i === 15
              ? accounts[12]
              : i < 34
                ? accounts[4 + (i % 8)]
                : null;
  for (let i = 0; i < 40; i++) {
    const status = PC_STATUS[i] ?? 'NORMAL';
    const holder = [5, 17, 29].includes(i) ? retired[i % retired.length] : active[(i * 7) % active.length];
    const gone = ['DISCARDED', 'DISPOSED'].includes(status);
    const prev = gone || i % 4 === 0 ? active[(i * 7 + 3) % active.length].id : null;
    const [maker, model] = MAKERS[i % MAKERS.length];
    const s = { user: gone ? null : holder.id, prev, status, loc: holder.location_id };
    const [row] = await em.execute(
      `insert into computer (asset_number, maker, device_type, model, current_user_id, previous_user_id, location_id, department_id, status, reason,
         purchase_date, introduction_date, office_account_id, pin_code, pass, ac_adapter, power_cable, updated_by_id)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::date - 7, ?, ?, ?, ?, ?, ?, ?) returning id`,
      [
        `PC-${String(i + 1).padStart(4, '0')}`,
        maker,
        i % 5 === 4 ? 'デスクトップ' : 'ノートPC',
        model,
        s.user,
        s.prev,
        s.loc,
        holder.department_id,
        status,
        status === 'NORMAL'
          ? null
          : status === 'LOST'
            ? '出張先で紛失（警察に届出済み）'
            : status === 'BROKEN'
              ? '液晶割れ・修理見積中'
              : status === 'REPLACE'
                ? 'バッテリー劣化のため交換予定'
                : 'リース満了',
        day(i),
        day(i),
        account(i),
        String(1000 + ((i * 7919) % 9000)),
        `Pc-${(i * 104729) % 100000}!`,
        i === 36 ? '紛失' : '有',
        i % 6 === 5 ? '無' : '有',
        actor,
      ],
    );
    await story('COMPUTER', row.id, i, s);
  }
  const CARRIERS = ['ドコモ', 'au', 'ソフトバンク', '楽天モバイル'];
  const OS = ['iOS 18', 'iOS 17', 'Android 15', 'Android 14'];
  const PHONE_STATUS: Record<number, string> = {
    4: 'BROKEN',
    9: 'REPLACE',
    15: 'BROKEN',
    19: 'DISCARDED',
    21: 'DISPOSED',
    23: 'REPLACE',
  };
  for (let i = 0; i < 24; i++) {
    const status = PHONE_STATUS[i] ?? 'NORMAL';
    const holder = [3, 11].includes(i) ? retired[(i + 1) % retired.length] : active[(i * 5 + 1) % active.length];
    const gone = ['DISCARDED', 'DISPOSED'].includes(status);
    const prev = gone || i % 3 === 0 ? active[(i * 5 + 4) % active.length].id : null;
    const s = { user: gone ? null : holder.id, prev, status, loc: holder.location_id };
    const n = String(10_000_000 + ((i * 2_654_435) % 89_999_999)).padStart(8, '0');
    const [row] = await em.execute(
      `insert into smartphone (phone_number, carrier, os, price, current_user_id, previous_user_id, location_id, department_id, status, exchange_date, pin_pw, updated_by_id)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
      [
        `0${[70, 80, 90][i % 3]}-${n.slice(0, 4)}-${n.slice(4)}`,
        CARRIERS[i % 4],
        OS[i % 4],
        49_800 + (i % 5) * 20_000,
        s.user,
        s.prev,
        s.loc,
        holder.department_id,
        status,
        i % 4 === 1 ? day(i + 20) : null,
        String(100000 + ((i * 7727) % 900000)),
        actor,
      ],
    );
    await story('SMARTPHONE', row.id, i, s);
  }
  return { computers: 40, smartphones: 24, officeAccounts: accounts.length };
}
