import { describe, expect, it } from 'vitest';
import { createMemoryKv } from '#shared/kv/index.js';
import { AccessRevocations } from './revocation.js';

const HOUR = 3_600_000;

describe('access revocations', () => {
  it('refuses every token of an ended sign-in session, and only those, in one read of the store', async () => {
    const kv = createMemoryKv();
    let reads = 0;
    const counted = { ...kv, get: (k: string) => (reads++, kv.get(k)), getMany: (k: readonly string[]) => (reads++, kv.getMany(k)) };
    const revocations = new AccessRevocations(counted, 30 * 24 * HOUR, 8 * HOUR);
    const token = (jti: string, sid?: string) => ({ jti, userId: 7, issuedAtMs: Date.now(), ...(sid ? { sid } : {}) });

    expect(await revocations.isRevoked(token('j1', 's1'))).toBe(false);
    expect(reads).toBe(1);
    await revocations.endSession('s1');
    expect(await revocations.isRevoked(token('j1', 's1'))).toBe(true);
    expect(await revocations.isRevoked(token('j2', 's1'))).toBe(true);
    expect(await revocations.isRevoked(token('j3', 's2'))).toBe(false);
    expect(await revocations.isRevoked(token('j4'))).toBe(false);
    // The marker lives as long as an access token could, with a minute of slack.
    const ttl = (await kv.ttl('auth:sid-ended:s1'))!;
    expect(ttl).toBeGreaterThan(8 * HOUR);
    expect(ttl).toBeLessThanOrEqual(8 * HOUR + 60_000);
    await kv.close();
  });

  it('refuses a blocklisted jti and everything of a user issued before a revocation of all their tokens', async () => {
    const kv = createMemoryKv();
    const revocations = new AccessRevocations(kv, 30 * 24 * HOUR, 8 * HOUR);
    const now = new Date();
    await revocations.block('j1', Math.floor(now.getTime() / 1000) + 60, now);
    expect(await revocations.isRevoked({ jti: 'j1', userId: 1, issuedAtMs: now.getTime() })).toBe(true);
    await revocations.revokeUserTokensBefore(2, now);
    expect(await revocations.isRevoked({ jti: 'j2', userId: 2, issuedAtMs: now.getTime() - 1, sid: 's' })).toBe(true);
    expect(await revocations.isRevoked({ jti: 'j3', userId: 2, issuedAtMs: now.getTime() + 1, sid: 's' })).toBe(false);
    await kv.close();
  });
});
