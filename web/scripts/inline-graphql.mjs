// Vite build plugin: each `graphql(`…`)` call of the web app becomes the document it returns, in the
// module that asks for it.
//
// The codegen client preset's `graphql()` looks the source text up in one map of every document of the
// app (web/src/gql/gql.ts → graphql.ts): whichever screen loads first carries all of them (126 KB,
// 8.8 KB gzipped, 54 documents). Rollup splits by module, not by export, so importing the documents by
// name would not split them either. Here the build writes each document (the codegen's own JSON,
// fragments included, the same object `graphql()` would return) where it is used, and drops the
// module's `graphql` import, so a document travels with its screen's chunk. `vite dev` keeps the map.
//
// A call whose text the codegen did not see (run `npm run codegen`) or that interpolates (`${…}`)
// fails the build instead of shipping a screen without its query.
import fs from 'node:fs';
import path from 'node:path';

const CALL = /\bgraphql\(\s*`([^`]*)`\s*\)/g;
const MAP_ENTRY = /^\s*("(?:[^"\\]|\\.)*"): types\.(\w+),$/gm;
const DOCUMENT = /^export const (\w+) = (\{.*\}) as unknown as DocumentNode<.*>;$/gm;
const IMPORT = /^import \{ graphql \} from '(?:\.\.?\/)+gql';\r?\n/m;

/** source text → the document's JSON, read from the codegen's output in `gqlDir`. */
export function readDocuments(gqlDir) {
  const gql = fs.readFileSync(path.join(gqlDir, 'gql.ts'), 'utf8');
  const types = fs.readFileSync(path.join(gqlDir, 'graphql.ts'), 'utf8');
  const json = new Map([...types.matchAll(DOCUMENT)].map((m) => [m[1], m[2]]));
  const start = gql.indexOf('const documents');
  const end = gql.indexOf('\n};', start);
  if (start < 0 || end < 0) throw new Error(`inline-graphql: no documents map in ${gqlDir}/gql.ts`);
  const documents = new Map();
  for (const m of gql.slice(start, end).matchAll(MAP_ENTRY)) {
    const doc = json.get(m[2]);
    if (!doc) throw new Error(`inline-graphql: ${m[2]} is in gql.ts but not in graphql.ts`);
    documents.set(JSON.parse(m[1]), doc);
  }
  return documents;
}

/** The module's code with its `graphql()` calls inlined, or null when it has none. */
export function inlineCalls(code, documents, id = 'module') {
  if (!code.includes('graphql(')) return null;
  const out = code.replace(CALL, (_, source) => {
    const doc = documents.get(source);
    if (!doc)
      throw new Error(`inline-graphql: ${id}: a graphql() document the codegen has not seen (run npm run codegen)`);
    return `(${doc})`;
  });
  if (/\bgraphql\(/.test(out))
    throw new Error(`inline-graphql: ${id}: a graphql() call that is not one plain template literal`);
  return out.replace(IMPORT, '');
}

export function inlineGraphql({ srcDir, gqlDir }) {
  let documents;
  return {
    name: 'inline-graphql-documents',
    apply: 'build',
    enforce: 'pre',
    buildStart() {
      documents = readDocuments(gqlDir);
    },
    transform(code, id) {
      const file = id.split('?')[0];
      if (!file.startsWith(srcDir) || file.startsWith(gqlDir) || !/\.tsx?$/.test(file)) return null;
      const out = inlineCalls(code, documents, path.relative(srcDir, file));
      return out === null ? null : { code: out, map: null };
    },
  };
}
