import type { EntityManager } from '@mikro-orm/postgresql';

interface Person {
  id: number;
  name: string;
  retired: boolean;
}

/** The master data an import resolves names against, loaded once per job. */
export interface ImportRefs {
  employees: Map<number, Person>;
  /** Employee name → id, or null when two employees share the name. */
  employeeByName: Map<string, number | null>;
  locations: Map<string, number>;
  departments: Map<string, number>;
  /** lower(account) → the Office account. */
  officeAccounts: Map<string, { id: number; suspended: boolean }>;
  suspendedAccounts: Set<number>;
}

export async function loadImportRefs(em: EntityManager): Promise<ImportRefs> {
  // One after another: inside the job's transaction they share one connection.
  const people = await em.execute<{ id: number; name: string; status: string }[]>(
    `select id, name, status from employee`,
  );
  const locations = await em.execute<{ id: number; name: string }[]>(`select id, name from location`);
  const departments = await em.execute<{ id: number; name: string }[]>(`select id, name from department`);
  const accounts = await em.execute<{ id: number; account: string; status: string }[]>(
    `select id, account, status::text from office_account`,
  );
  const employees = new Map(people.map((p) => [p.id, { id: p.id, name: p.name, retired: p.status === 'RETIRED' }]));
  const employeeByName = new Map<string, number | null>();
  for (const p of people) employeeByName.set(p.name.trim(), employeeByName.has(p.name.trim()) ? null : p.id);
  return {
    employees,
    employeeByName,
    locations: new Map(locations.map((l) => [l.name, l.id])),
    departments: new Map(departments.map((d) => [d.name, d.id])),
    officeAccounts: new Map(
      accounts.map((a) => [a.account.toLowerCase(), { id: a.id, suspended: a.status === 'SUSPENDED' }]),
    ),
    suspendedAccounts: new Set(accounts.filter((a) => a.status === 'SUSPENDED').map((a) => a.id)),
  };
}
