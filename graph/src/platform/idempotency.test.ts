import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../test/db.js';
import { api, gql, loginToken } from '../test/http.js';

let p: TestPlatform;
let admin: string;
let staff: string;
beforeAll(async () => {
  p = await startTestPlatform();
  admin = await loginToken(p.url, 'admin');
  staff = await loginToken(p.url, 'staff');
});
afterAll(async () => p?.close());

const count = async (name: string) =>
  (
    await p.db.orm.em.fork().getConnection().execute(`select count(*)::int as n from department where name = ?`, [name])
  )[0].n as number;
const create = (name: string, key: string | undefined, token = admin) =>
  api(p.url, 'POST', '/departments', {
    token,
    body: { department_name: name },
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });

describe('Idempotency-Key on /api creates', () => {
  it('a retry with the same key writes nothing and gets the first answer, marked as replayed', async () => {
    const first = await create('再送の確認部', 'k-1');
    expect(first.status).toBe(201);
    let again = await create('再送の確認部', 'k-1');
    for (let i = 0; i < 40 && again.status === 409; i++)
      again = await new Promise((r) => setTimeout(r, 50)).then(() => create('再送の確認部', 'k-1'));
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await count('再送の確認部')).toBe(1);
  });

  it('without a key, each POST is its own write (as before)', async () => {
    await create('キーなし部', undefined);
    await create('キーなし部2', undefined);
    expect(await count('キーなし部')).toBe(1);
  });

  it('the same key with another body is a 400 that names it, and writes nothing', async () => {
    await create('一つ目の部', 'k-2');
    const other = await create('二つ目の部', 'k-2');
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await count('二つ目の部')).toBe(0);
  });

  it('keys are per person: another person’s same key is a request of its own', async () => {
    const mine = await create('本人の部', 'shared-key');
    expect(mine.status).toBe(201);
    // 一般 may not create departments: their answer is their own 403, not the admin's 201.
    const theirs = await create('本人の部', 'shared-key', staff);
    expect(theirs.status).toBe(403);
  });

  it('a refused first request is replayed as refused (the retry cannot turn it into a write)', async () => {
    const bad = await create('', 'k-3');
    expect(bad.status).toBe(400);
    let again = await create('', 'k-3');
    for (let i = 0; i < 40 && again.status === 409; i++)
      again = await new Promise((r) => setTimeout(r, 50)).then(() => create('', 'k-3'));
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('a key that is not visible ASCII, or too long, is a 400', async () => {
    for (const key of ['', 'x'.repeat(256)]) {
      const r = await create('キーが不正な部', key);
      expect(r.status, key).toBe(400);
    }
    expect(await count('キーが不正な部')).toBe(0);
  });

  it('five retries at once: one write; each answer is the first one or a 409 saying to retry', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => create('同時の再送部', 'k-race')));
    expect(await count('同時の再送部')).toBe(1);
    for (const a of answers) {
      expect([201, 409]).toContain(a.status);
      if (a.status === 409) {
        expect(a.body.reason).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
        expect(a.headers.get('retry-after')).toBe('1');
      }
    }
    // The first answer is recorded as it is sent: a retry right after may still hear 409 for a moment.
    let later = await create('同時の再送部', 'k-race');
    for (let i = 0; i < 40 && later.status === 409; i++)
      later = await new Promise((r) => setTimeout(r, 50)).then(() => create('同時の再送部', 'k-race'));
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('Idempotency-Key on GraphQL mutations over HTTP', () => {
  const CREATE = `mutation($i: DepartmentInput!) { createDepartment(input: $i) { id name } }`;
  const mutate = (name: string, key: string) =>
    gql(p.url, CREATE, { i: { name, memberIds: [] } }, { token: admin, headers: { 'idempotency-key': key } });

  it('a retried mutation writes nothing and answers as the first did', async () => {
    const first = await mutate('GraphQL の再送部', 'g-1');
    expect(first.body.errors).toBeUndefined();
    let again = await mutate('GraphQL の再送部', 'g-1');
    for (let i = 0; i < 40 && again.status === 409; i++)
      again = await new Promise((r) => setTimeout(r, 50)).then(() => mutate('GraphQL の再送部', 'g-1'));
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await count('GraphQL の再送部')).toBe(1);
  });

  it('the same key with other variables is BAD_USER_INPUT with its reason; a query ignores the key', async () => {
    await mutate('GraphQL 一つ目', 'g-2');
    const other = await mutate('GraphQL 二つ目', 'g-2');
    expect(other.status).toBe(400);
    expect(other.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await count('GraphQL 二つ目')).toBe(0);
    const read = await gql(p.url, '{ me { id } }', {}, { token: admin, headers: { 'idempotency-key': 'g-2' } });
    expect(read.body.data.me.id).toBeGreaterThan(0);
  });
});
