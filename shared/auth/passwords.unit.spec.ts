import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dummyVerify, hashPassword, needsRehash, verifyPassword } from './passwords.js';

const FORMAT = /^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/;

/** A hash in the stored format made with other parameters, as an older release would have written it. */
function legacyHash(plain: string, N: number): string {
  const salt = randomBytes(16);
  const hash = scryptSync(plain, salt, 32, { N, r: 8, p: 1 });
  return `scrypt$${N}$8$1$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

async function elapsedMs(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('password hashing', () => {
  it('verifies the password it hashed and rejects another', async () => {
    const stored = await hashPassword('correct horse battery staple');

    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('stores the parameters, a 16-byte salt and a 32-byte hash in base64url', async () => {
    expect(await hashPassword('s3cret-pass')).toMatch(FORMAT);
  });

  it('salts every hash differently, so equal passwords do not give equal hashes', async () => {
    const a = await hashPassword('same-password');
    const b = await hashPassword('same-password');

    expect(a).not.toBe(b);
    expect(a.split('$')[4]).not.toBe(b.split('$')[4]);
    expect(await verifyPassword('same-password', b)).toBe(true);
  });

  it('reads the cost from the stored hash, so hashes made with older parameters still verify', async () => {
    const stored = legacyHash('old-password', 2 ** 14);

    expect(await verifyPassword('old-password', stored)).toBe(true);
    expect(await verifyPassword('other-password', stored)).toBe(false);
  });

  it('treats composed and decomposed Unicode spellings of a password as the same password', async () => {
    const stored = await hashPassword('caf\u00e9-pa\u00dfwort');
    expect(await verifyPassword('cafe\u0301-pa\u00dfwort', stored)).toBe(true);
  });

  it('rejects a stored hash whose last byte was changed', async () => {
    const stored = await hashPassword('tamper-me');
    const parts = stored.split('$');
    const hash = Buffer.from(parts[5]!, 'base64url');
    hash[hash.length - 1]! ^= 1;
    parts[5] = hash.toString('base64url');

    expect(await verifyPassword('tamper-me', parts.join('$'))).toBe(false);
  });

  it.each([
    ['empty', ''],
    ['another scheme', '$2b$12$abcdefghijklmnopqrstuu5Q2fV2S3x4Y5z6A7b8C9d0E1f2G3h4I'],
    ['N not a power of two', 'scrypt$30000$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a cost asking for gigabytes', `scrypt$1048576$64$1$${'A'.repeat(22)}$${'A'.repeat(43)}`],
    ['a missing field', 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA'],
    ['non-base64url salt', 'scrypt$32768$8$1$AA+A/AAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
  ])('answers false, without throwing, for an unreadable stored hash (%s)', async (_name, stored) => {
    expect(await verifyPassword('anything', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(true);
  });

  it('asks for a rehash only when the stored parameters differ from the current ones', async () => {
    expect(needsRehash(await hashPassword('fresh-password'))).toBe(false);
    expect(needsRehash(legacyHash('old-password', 2 ** 14))).toBe(true);
  });
});

describe('dummyVerify', () => {
  it('always answers false', async () => {
    expect(await dummyVerify()).toBe(false);
    expect(await dummyVerify('correct horse battery staple')).toBe(false);
  });

  it('costs about as much as verifying a real account, so timing does not reveal whether it exists', async () => {
    const stored = await hashPassword('some-password');
    const real: number[] = [];
    const dummy: number[] = [];
    for (let i = 0; i < 3; i++) {
      real.push(await elapsedMs(() => verifyPassword('wrong-guess', stored)));
      dummy.push(await elapsedMs(() => dummyVerify('wrong-guess')));
    }

    // Loose bounds: both run one scrypt at the same cost; an early return would be orders of magnitude faster.
    expect(median(dummy)).toBeGreaterThan(median(real) * 0.3);
    expect(median(dummy)).toBeLessThan(median(real) * 3);
  });
});
