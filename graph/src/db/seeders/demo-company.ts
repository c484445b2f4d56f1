import type { EntityManager } from '@mikro-orm/postgresql';
import { hashPassword } from '../../modules/auth/password.js';
import { seedDemoSchedules } from './demo-schedules.js';

export const DEMO_PASSWORD = 'intranet-demo';

export const DEMO_LOGINS = [
  { loginId: 'admin', role: '管理者' },
  { loginId: 'sysadmin', role: 'システム管理者' },
  { loginId: 'devadmin', role: 'デバイス管理者' },
  { loginId: 'staff', role: '一般' },
] as const;

const LOCATIONS = ['東京', '姫路', '大阪'];
const DEPARTMENTS = ['開発', '人材', '営業', '総務', '経理', '品質保証', 'マーケティング'];
const SURNAMES = ['佐藤', '鈴木', '高橋', '田中', '伊藤', '渡辺', '山本', '中村', '小林', '加藤', '吉田', '山田', '佐々木', '山口', '松本', '井上', '木村', '林', '斎藤', '清水', '山崎', '森', '池田', '橋本', '阿部', '石川', '山下', '中島', '前田', '藤田'];
const GIVEN = ['翔太', '美咲', '大輔', '陽菜', '健一', '結衣', '拓海', '彩花', '直樹', '真由美', '亮', '愛', '和也', '由香', '誠', '奈々', '隆', 'さくら', '悠斗', '千尋', '浩二', '恵', '達也', '麻衣', '剛', '優子', '雄介', '舞子', '修', '瞳'];
const ROMAJI_SURNAMES = ['sato', 'suzuki', 'takahashi', 'tanaka', 'ito', 'watanabe', 'yamamoto', 'nakamura', 'kobayashi', 'kato', 'yoshida', 'yamada', 'sasaki', 'yamaguchi', 'matsumoto', 'inoue', 'kimura', 'hayashi', 'saito', 'shimizu', 'yamazaki', 'mori', 'ikeda', 'hashimoto', 'abe', 'ishikawa', 'yamashita', 'nakajima', 'maeda', 'fujita'];
const ROMAJI_GIVEN = ['shota', 'misaki', 'daisuke', 'hina', 'kenichi', 'yui', 'takumi', 'ayaka', 'naoki', 'mayumi', 'ryo', 'ai', 'kazuya', 'yuka', 'makoto', 'nana', 'takashi', 'sakura', 'yuto', 'chihiro', 'koji', 'megumi', 'tatsuya', 'mai', 'tsuyoshi', 'yuko', 'yusuke', 'maiko', 'osamu', 'hitomi'];

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
export async function seedDemoCompany(em: EntityManager): Promise<SeedSummary> {
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
    { name: '山田 太郎', login: 'admin', email: 'taro.yamada@example.co.jp', role: 'ADMIN', status: 'ACTIVE', dept: deptIds[3], loc: locIds[0] },
    { name: '鈴木 花子', login: 'sysadmin', email: 'hanako.suzuki@example.co.jp', role: 'SYSTEM_ADMIN', status: 'ACTIVE', dept: deptIds[0], loc: locIds[0] },
    { name: '高橋 健太', login: 'devadmin', email: 'kenta.takahashi@example.co.jp', role: 'DEVICE_ADMIN', status: 'ACTIVE', dept: deptIds[0], loc: locIds[1] },
    { name: '田中 美咲', login: 'staff', email: 'misaki.tanaka@example.co.jp', role: 'GENERAL', status: 'ACTIVE', dept: deptIds[2], loc: locIds[2] },
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
  return { employees: ids.length, departments: deptIds.length, locations: locIds.length, schedules };
}

export async function isDatabaseEmpty(em: EntityManager): Promise<boolean> {
  const [row] = await em.execute(`select count(*)::int as n from employee`);
  return row.n === 0;
}
