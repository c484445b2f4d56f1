import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../test/db.js';
import { gql, loginToken } from '../test/http.js';

let dev: TestPlatform;
let prod: TestPlatform;
let token: string;
beforeAll(async () => {
  dev = await startTestPlatform({
    GRAPHQL_MAX_DEPTH: '3',
    GRAPHQL_MAX_ALIASES: '5',
    GRAPHQL_MAX_COST: '60',
    GRAPHQL_MAX_TOKENS: '400',
  });
  prod = await startTestPlatform({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40) });
  token = await loginToken(dev.url, 'staff');
});
afterAll(async () => {
  await dev?.close();
  await prod?.close();
});

const codeOf = (r: { body: { errors?: { extensions?: { code?: string } }[] } }) => r.body.errors?.[0]?.extensions?.code;

describe('GraphQL limits over HTTP', () => {
  it('rejects too deep a query', async () => {
    expect(codeOf(await gql(dev.url, `{ me { department { id } } }`, {}, { token }))).toBeUndefined();
    const r = await gql(dev.url, `{ employees { items { department { id } } } }`, {}, { token });
    expect(r.body.data).toBeUndefined();
    expect(r.body.errors[0].message).toMatch(/depth/i);
  });

  it('rejects too many aliases', async () => {
    const q = `{ ${Array.from({ length: 6 }, (_, i) => `m${i}: me { id }`).join(' ')} }`;
    const r = await gql(dev.url, q, {}, { token });
    expect(r.body.errors[0].message).toMatch(/aliases/i);
    expect(r.body.data).toBeUndefined();
  });

  it('rejects too costly a query', async () => {
    expect(codeOf(await gql(dev.url, `{ me { id name } }`, {}, { token }))).toBeUndefined();
    const q = `{ a: employees { total items { id name email roleLabel statusLabel department { id name } location { id name } } } b: employees { total items { id name email roleLabel statusLabel department { id name } location { id name } } } }`;
    const r = await gql(dev.url, q, {}, { token });
    expect(r.body.errors[0].message).toMatch(/cost/i);
  });

  it('rejects too many tokens before parsing the whole document', async () => {
    const q = `{ me { ${'id '.repeat(500)} } }`;
    const r = await gql(dev.url, q, {}, { token });
    expect(r.body.errors[0].message).toMatch(/token/i);
  });

  it('never suggests field names', async () => {
    const r = await gql(dev.url, `{ employes { total } }`, {}, { token });
    expect(r.body.errors[0].message).not.toMatch(/Did you mean/);
    expect(JSON.stringify(r.body)).not.toContain('"employees"');
  });

  it('refuses batched HTTP requests', async () => {
    const res = await fetch(`${dev.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify([{ query: '{ me { id } }' }, { query: '{ me { id } }' }]),
    });
    expect(res.status).toBe(400);
  });
});

describe('CSRF prevention', () => {
  it('refuses a simple (form-like) POST and a GET without a preflight header', async () => {
    const form = await fetch(`${dev.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ query: '{ me { id } }' }),
    });
    expect(form.status).toBe(400);
    const get = await fetch(`${dev.url}/graphql?query=${encodeURIComponent('{ me { id } }')}`);
    expect(get.status).toBe(400);
    expect(await get.text()).toMatch(/CSRF/);
  });
});

describe('production mode', () => {
  it('has no introspection', async () => {
    const r = await gql(prod.url, `{ __schema { queryType { name } } }`);
    expect(r.body.errors[0].message).toMatch(/introspection/i);
  });

  it('does not run the demo seed', async () => {
    const [row] = await prod.db.orm.em.fork().getConnection().execute(`select count(*)::int as n from employee`);
    expect(row.n).toBe(0);
  });
});
