import { tokyoToday } from '@intranet/schema/calendar/tokyo';
import type { EntityManager } from '@mikro-orm/postgresql';
import { addDays, mondayOf } from '../../modules/schedules/schedule.rules.js';

/** Today's date in Tokyo (the company's calendar). */
export { tokyoToday };

interface Person {
  id: number;
  name: string;
  department_id: number;
  department: string;
}

/**
 * A believable schedule for the current and the next week: daily stand-ups and weekly meetings
 * with guests, 1on1s, remote days with a meet link, all-day leave and business trips, and a few
 * private entries. Deterministic for a given start date.
 */
export async function seedDemoSchedules(em: EntityManager, today = tokyoToday()): Promise<number> {
  const people: Person[] = await em.execute(
    `select e.id, e.name, e.department_id, d.name as department from employee e join department d on d.id = e.department_id
      where e.status = 'ACTIVE' order by e.id`,
  );
  const managers: { id: number; manager_id: number }[] = await em.execute(
    `select id, manager_id from department where manager_id is not null`,
  );
  const managerOf = new Map(managers.map((m) => [m.id, m.manager_id]));
  const monday = mondayOf(today);
  let count = 0;
  const add = async (
    ownerId: number,
    e: {
      title: string;
      date: string;
      start?: string;
      end?: string;
      type?: string;
      meet?: string;
      desc?: string;
      priv?: boolean;
      guests?: number[];
      endDate?: string;
    },
  ) => {
    const allDay = !e.start;
    const [row] = await em.execute(
      `insert into schedule (owner_id, title, start_date, end_date, is_all_day, start_time, end_time, type, meet_link, description, sync_google, is_private, updated_by_id)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, false, ?, ?) returning id`,
      [
        ownerId,
        e.title,
        e.date,
        e.endDate ?? e.date,
        allDay,
        e.start ?? null,
        e.end ?? null,
        e.type ?? 'TASK',
        e.meet ?? null,
        e.desc ?? null,
        e.priv ?? false,
        ownerId,
      ],
    );
    const guests = (e.guests ?? []).filter((g) => g !== ownerId);
    if (guests.length) {
      await em.execute(
        `insert into schedule_guest (schedule_id, employee_id, response)
         select ?, g, (array['PENDING','ACCEPTED','ACCEPTED','DECLINED']::guest_response[])[1 + (g % 4)] from unnest(?::int[]) g`,
        [row.id, `{${guests.join(',')}}`],
      );
    }
    count++;
  };
  const byDept = new Map<number, Person[]>();
  for (const p of people) byDept.set(p.department_id, [...(byDept.get(p.department_id) ?? []), p]);

  for (let w = 0; w < 2; w++) {
    const weekStart = addDays(monday, w * 7);
    for (const [deptId, members] of byDept) {
      const lead = managerOf.get(deptId) ?? members[0].id;
      const dept = members[0].department;
      const others = members.map((m) => m.id).filter((id) => id !== lead);
      // Daily stand-up (Mon–Fri) for the whole department.
      for (let d = 0; d < 5; d++) {
        await add(lead, {
          title: `${dept}チーム 朝会`,
          date: addDays(weekStart, d),
          start: '09:30',
          end: '09:45',
          type: 'APPOINTMENT',
          guests: others,
        });
      }
      // Weekly department meeting on Wednesday.
      await add(lead, {
        title: `${dept} 週次定例`,
        date: addDays(weekStart, 2),
        start: '14:00',
        end: '15:00',
        type: 'APPOINTMENT',
        desc: '今週の進捗と来週の予定を共有します。',
        guests: others,
      });
      // 1on1s with two members each week.
      for (const [i, m] of others.slice(w * 2, w * 2 + 2).entries()) {
        await add(lead, {
          title: `1on1（${members.find((x) => x.id === m)!.name.split(' ')[0]}さん）`,
          date: addDays(weekStart, 1 + i * 2),
          start: '16:00',
          end: '16:30',
          type: 'APPOINTMENT',
          guests: [m],
        });
      }
    }
    for (const [i, p] of people.entries()) {
      const k = (i + w * 3) % 11;
      if (k === 0)
        await add(p.id, {
          title: '在宅勤務',
          date: addDays(weekStart, i % 5),
          start: '09:00',
          end: '18:00',
          type: 'REMOTE',
          meet: 'https://meet.google.com/abc-defg-hij',
        });
      if (k === 3) await add(p.id, { title: '有給休暇', date: addDays(weekStart, 4) });
      if (k === 5)
        await add(p.id, {
          title: '大阪出張',
          date: addDays(weekStart, 2),
          endDate: addDays(weekStart, 3),
          desc: '大阪拠点での打ち合わせ',
        });
      if (k === 7)
        await add(p.id, { title: '通院', date: addDays(weekStart, 1), start: '11:00', end: '12:00', priv: true });
      if (k === 9)
        await add(p.id, {
          title: '資料作成',
          date: addDays(weekStart, 3),
          start: '10:00',
          end: '12:00',
          type: 'TASK',
          desc: '顧客向け提案資料',
        });
    }
  }
  return count;
}
