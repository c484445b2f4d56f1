import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getMetadataStorage } from 'type-graphql';
import { buildAppSchema, printAppSchema } from './schema.js';

describe('the GraphQL contract', () => {
  it('schema/graphql/schema.graphql is what the code emits (run `npm run schema:emit`)', async () => {
    const committed = fs.readFileSync(path.resolve(__dirname, '../../../schema/graphql/schema.graphql'), 'utf8');
    expect(printAppSchema(await buildAppSchema())).toBe(committed);
  });

  it('every query, mutation and subscription carries an explicit @Authorized rule', async () => {
    await buildAppSchema();
    const meta = getMetadataStorage();
    const roots = [...meta.queries, ...meta.mutations, ...meta.subscriptions];
    expect(roots.length).toBeGreaterThan(5);
    const ruled = new Set(meta.authorizedFields.map((f) => `${f.target.name}.${f.fieldName}`));
    const missing = roots.filter((r) => !ruled.has(`${r.target.name}.${r.methodName}`)).map((r) => `${r.target.name}.${r.methodName}`);
    expect(missing).toEqual([]);
  });
});
