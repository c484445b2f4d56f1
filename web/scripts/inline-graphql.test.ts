import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
// @ts-expect-error a plain .mjs script without type declarations
import { inlineCalls, readDocuments } from './inline-graphql.mjs';

const ME = '\n  query Me {\n    me {\n      ...CurrentUserFields\n    }\n  }\n';
const ME_JSON =
  '{"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Me"}}]}';

function codegenOutput(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inline-graphql-'));
  fs.writeFileSync(
    path.join(dir, 'gql.ts'),
    [
      "import * as types from './graphql';",
      'type Documents = {',
      `    ${JSON.stringify(ME)}: typeof types.MeDocument,`,
      '};',
      'const documents: Documents = {',
      `    ${JSON.stringify(ME)}: types.MeDocument,`,
      '};',
      'export function graphql(source: string) { return (documents as any)[source] ?? {}; }',
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(dir, 'graphql.ts'),
    `export type MeQuery = { me: null };\nexport const MeDocument = ${ME_JSON} as unknown as DocumentNode<MeQuery, MeQueryVariables>;\n`,
  );
  return dir;
}

describe('inline-graphql (build plugin)', () => {
  const documents = readDocuments(codegenOutput()) as Map<string, string>;

  test('reads each source text and its document from the codegen output', () => {
    expect([...documents.keys()]).toEqual([ME]);
    expect(JSON.parse(documents.get(ME)!)).toMatchObject({ kind: 'Document' });
  });

  test('replaces the call by the document and drops the graphql import', () => {
    const code = `import { graphql } from '../../gql';\nimport { x } from './x';\nexport const MeQuery = graphql(\`${ME}\`);\n`;
    const out = inlineCalls(code, documents) as string;
    expect(out).toBe(`import { x } from './x';\nexport const MeQuery = (${ME_JSON});\n`);
    // what the module evaluates to is the codegen's document itself
    expect(new Function(`return ${out.split('= ')[1].replace(/;\n$/, '')}`)()).toEqual(JSON.parse(ME_JSON));
  });

  test('leaves modules without calls alone', () => {
    expect(inlineCalls("import { useQuery } from '@apollo/client';\n", documents)).toBeNull();
  });

  test('fails the build on a document the codegen has not seen, or a call it cannot inline', () => {
    expect(() => inlineCalls('graphql(`query Other { me { id } }`)', documents, 'a.ts')).toThrow(
      /a\.ts: .*has not seen/,
    );
    expect(() => inlineCalls('graphql(`query ${name} { me { id } }`)', documents, 'b.ts')).toThrow(/b\.ts/);
    expect(() => inlineCalls('graphql(source)', documents, 'c.ts')).toThrow(/c\.ts: .*not one plain template literal/);
  });
});
