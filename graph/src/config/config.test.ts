import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('configuration', () => {
  it('has working defaults for a fresh machine', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(4000);
    expect(c.dataDir).toMatch(/\.data$/);
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it('fails fast naming the bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET/);
    expect(() => loadConfig({ GOOGLE_CLIENT_SECRET: 's' })).toThrow(/GOOGLE_CLIENT_ID/);
  });

  it('every variable the config reads is documented in .env.example', async () => {
    const fs = await import('node:fs');
    const src = fs.readFileSync(new URL('./config.ts', import.meta.url), 'utf8');
    const example = fs.readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8');
    const vars = [...src.matchAll(/^\s{2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]);
    expect(vars.length).toBeGreaterThan(10);
    expect(vars.filter((v) => !new RegExp(`^#?\\s*${v}=`, 'm').test(example))).toEqual([]);
  });
});
