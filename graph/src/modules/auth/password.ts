import argon2 from 'argon2';

/** argon2id at OWASP's recommended minimum or stronger: 19 MiB, t=2, p=1. */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (plain: string): Promise<string> => argon2.hash(plain, ARGON2_OPTIONS);

let dummyHash: Promise<string> | undefined;

/** Verifies against the stored hash, or against a dummy hash so unknown IDs take the same time. */
export async function verifyPassword(hash: string | null | undefined, plain: string): Promise<boolean> {
  if (!hash) {
    dummyHash ??= hashPassword('not-a-real-password-just-for-timing');
    await argon2.verify(await dummyHash, plain).catch(() => false);
    return false;
  }
  try {
    return await argon2.verify(hash, plain);
  } catch {
    return false;
  }
}

export const needsRehash = (hash: string): boolean => argon2.needsRehash(hash, ARGON2_OPTIONS);
