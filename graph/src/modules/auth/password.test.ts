import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password.js';

describe('password hashing', () => {
  it('uses argon2id with at least 19 MiB and t=2', async () => {
    const h = await hashPassword('correct horse');
    expect(h.startsWith('$argon2id$')).toBe(true);
    const params = Object.fromEntries(
      h
        .split('$')[3]
        .split(',')
        .map((kv) => kv.split('=')),
    );
    expect(Number(params.m)).toBeGreaterThanOrEqual(19456);
    expect(Number(params.t)).toBeGreaterThanOrEqual(2);
    expect(await verifyPassword(h, 'correct horse')).toBe(true);
    expect(await verifyPassword(h, 'wrong')).toBe(false);
    expect(await verifyPassword(null, 'anything')).toBe(false);
  });
});
