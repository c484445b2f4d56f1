import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAppSchema, printAppSchema } from './platform/schema.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SCHEMA_FILE = path.join(root, 'schema/graphql/schema.graphql');

const sdl = printAppSchema(await buildAppSchema());
fs.writeFileSync(SCHEMA_FILE, sdl);
console.log(`wrote ${path.relative(root, SCHEMA_FILE)} (${sdl.length} bytes)`);
