import fs from 'node:fs';
import path from 'node:path';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { mountApiRoutes } from './api-routes.js';
import { ERROR_REASONS } from './error-reasons.js';

/** Every route the /api router mounts is described in schema/openapi/api.yaml, and nothing more. */
function mountedRoutes(): string[] {
  const r = express.Router();
  mountApiRoutes(r);
  return (r.stack as { route?: { path: string; methods: Record<string, boolean> } }[])
    .filter((l) => l.route)
    .flatMap((l) =>
      Object.keys(l.route!.methods).map((m) => `${m.toUpperCase()} ${l.route!.path.replace(/:(\w+)/g, '{$1}')}`),
    )
    .sort();
}

const doc = parse(fs.readFileSync(path.resolve(__dirname, '../../../schema/openapi/api.yaml'), 'utf8'));

describe('schema/openapi/api.yaml', () => {
  it('describes exactly the mounted /api routes', () => {
    const described = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    expect(described).toEqual(mountedRoutes());
  });

  it('lists every reason an error can carry (AppError takes no other)', () => {
    expect(doc.components.schemas.Error.properties.reason.enum).toEqual([...ERROR_REASONS]);
  });
});
