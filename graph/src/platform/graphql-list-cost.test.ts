import fs from 'node:fs';
import path from 'node:path';
import { buildSchema, getOperationAST, Kind, parse, type FragmentDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { listCost } from './graphql-list-cost.js';
import { repoRoot } from './paths.js';

const root = repoRoot(import.meta.url);
const schema = buildSchema(fs.readFileSync(path.join(root, 'schema/graphql/schema.graphql'), 'utf8'));
const costOf = (query: string, variables: Record<string, unknown> = {}) => {
  const doc = parse(query);
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  return listCost(schema, getOperationAST(doc)!, fragments, variables);
};
const MAX = 50_000;

describe('list cost: every field once per item of the lists around it', () => {
  it("counts a page's items by the limit asked (literal or variable), replies by their bound", () => {
    const one = costOf(
      `{ blogComments(postId: 1, limit: 100) { totalCount items { id content replies { id content } } } }`,
    );
    // blogComments, totalCount and items once; id, content and replies per comment; two fields per reply
    expect(one).toBe(3 + 100 * 3 + 100 * 10 * 2);
    expect(costOf(`query($n: Int) { blogComments(postId: 1, limit: $n) { items { id } } }`, { n: 5 })).toBe(2 + 5);
    // A list whose limit the query leaves out counts its schema default (the tags' page: 200), not a guess.
    expect(costOf(`{ blogTags { id content } }`)).toBe(1 + 200 * 2);
  });

  it('refuses the 15-alias comments flood that answered 165 MB, and fits the legitimate page', () => {
    const page = `blogComments(postId: 1, limit: 100) { items { id content createdAt canDelete author { id name } attachment { url name } replies { id content createdAt author { id name } } } }`;
    expect(costOf(`{ ${page} }`)).toBeLessThan(MAX);
    const flood = `{ ${Array.from({ length: 15 }, (_, i) => `a${i}: ${page}`).join(' ')} }`;
    expect(costOf(flood)).toBeGreaterThan(MAX);
  });

  it('keeps every query and mutation the web app sends under the limit, with the largest limits its variables allow', () => {
    const docs = fs.readFileSync(path.join(root, 'web/src/gql/graphql.ts'), 'utf8');
    const names = [
      ...docs.matchAll(/export const (\w+Document) = (\{"kind":"Document".*?\}) as unknown as DocumentNode/g),
    ];
    expect(names.length).toBeGreaterThan(50);
    for (const [, name, json] of names) {
      const doc = JSON.parse(json!) as ReturnType<typeof parse>;
      const op = getOperationAST(doc);
      if (!op || op.operation === 'subscription') continue;
      const fragments: Record<string, FragmentDefinitionNode> = {};
      for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
      // A limit variable at the server's maximum (200, or 100 for comments): the worst the screen can ask.
      const variables = Object.fromEntries(
        (op.variableDefinitions ?? [])
          .filter((v) => v.variable.name.value === 'limit')
          .map((v) => [v.variable.name.value, 100]),
      );
      expect(listCost(schema, op, fragments, variables), name).toBeLessThan(MAX);
    }
  });
});
