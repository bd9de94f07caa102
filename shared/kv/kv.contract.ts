import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KeyValueStore } from './index.js';

/** How the contract reaches one adapter. */
export interface KvContractTarget {
  /** Opens a store; the contract closes it after each test. */
  open(): Promise<KeyValueStore>;
}

/** Polls `condition` until it holds; rejects when `timeoutMs` passes first. */
export async function eventually(condition: () => Promise<boolean>, timeoutMs = 3_000, intervalMs = 5): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

const PARALLEL = 20;

/** The key-value contract: every adapter must pass it unchanged. */
// Long on purpose: a contract suite is one list of cases sharing the subject opened once in its describe block; read top to bottom, each `it` is one clause of the port's contract, and splitting it would only scatter that shared setup.
export function kvContract(name: string, target: KvContractTarget): void {
  describe(`key-value contract: ${name}`, () => {
    let kv: KeyValueStore;
    let key: (label: string) => string;

    beforeEach(async () => {
      kv = await target.open();
      const run = randomBytes(5).toString('hex');
      key = (label) => `test:${run}:${label}`;
    });
    afterEach(async () => {
      await kv.close();
    });

    it('returns null for a missing key, the value after set, and the newer value after an overwrite', async () => {
      const k = key('plain');
      expect(await kv.get(k)).toBeNull();
      await kv.set(k, 'first');
      expect(await kv.get(k)).toBe('first');
      await kv.set(k, 'second');
      expect(await kv.get(k)).toBe('second');
    });

    it('reads several keys at once, in the order asked, null for absent and expired ones', async () => {
      const [a, b, gone] = [key('many-a'), key('many-b'), key('many-gone')];
      await kv.set(a, 'A');
      await kv.set(b, 'B', { ttlMs: 60_000 });
      await kv.set(gone, 'G', { ttlMs: 50 });
      await eventually(async () => (await kv.get(gone)) === null);
      expect(await kv.getMany([b, key('many-missing'), a, gone])).toEqual(['B', null, 'A', null]);
      expect(await kv.getMany([])).toEqual([]);
    });

    it('expires a key after its ttl, not before, and then treats it as absent everywhere', async () => {
      const k = key('expiring');
      const ttlMs = 100;
      const started = Date.now();
      await kv.set(k, 'short-lived', { ttlMs });
      expect(await kv.get(k)).toBe('short-lived');
      const left = await kv.ttl(k);
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThanOrEqual(ttlMs);

      await eventually(async () => (await kv.get(k)) === null);
      // Clocks tick in whole milliseconds; a few of them is the only slack allowed.
      expect(Date.now() - started).toBeGreaterThanOrEqual(ttlMs - 5);
      expect(await kv.ttl(k)).toBeNull();
      expect(await kv.take(k)).toBeNull();
      expect(await kv.delete(k)).toBe(false);
    });

    it('drops an earlier expiry when a key is set again without ttl', async () => {
      const k = key('made-permanent');
      await kv.set(k, 'v1', { ttlMs: 60_000 });
      expect(await kv.ttl(k)).not.toBeNull();
      await kv.set(k, 'v2');
      expect(await kv.ttl(k)).toBeNull();
      expect(await kv.get(k)).toBe('v2');
    });

    it('reports ttl as null for a missing key and a key without expiry, else the milliseconds left', async () => {
      const forever = key('forever');
      const minute = key('minute');
      await kv.set(forever, 'x');
      await kv.set(minute, 'y', { ttlMs: 60_000 });
      expect(await kv.ttl(key('missing'))).toBeNull();
      expect(await kv.ttl(forever)).toBeNull();
      const left = await kv.ttl(minute);
      expect(left).toBeGreaterThan(59_000);
      expect(left).toBeLessThanOrEqual(60_000);
    });

    it('rejects a ttl that is not a positive number of milliseconds', async () => {
      await expect(kv.set(key('bad-ttl'), 'v', { ttlMs: 0 })).rejects.toThrow(RangeError);
      await expect(kv.setIfAbsent(key('bad-ttl'), 'v', { ttlMs: -5 })).rejects.toThrow(RangeError);
      await expect(kv.increment(key('bad-ttl'), { ttlMs: Number.NaN })).rejects.toThrow(RangeError);
      expect(await kv.get(key('bad-ttl'))).toBeNull();
    });

    it(`lets exactly one of ${PARALLEL} parallel setIfAbsent callers win, and keeps the winner's value`, async () => {
      const k = key('lock');
      const results = await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) => kv.setIfAbsent(k, `owner-${i}`, { ttlMs: 60_000 })),
      );
      const winners = results.flatMap((won, i) => (won ? [i] : []));
      expect(winners).toHaveLength(1);
      expect(await kv.get(k)).toBe(`owner-${winners[0]}`);
      expect(await kv.ttl(k)).toBeGreaterThan(0);
    });

    it('lets setIfAbsent succeed again once the key has expired', async () => {
      const k = key('once-marker');
      expect(await kv.setIfAbsent(k, 'first', { ttlMs: 100 })).toBe(true);
      expect(await kv.setIfAbsent(k, 'too-early')).toBe(false);
      expect(await kv.get(k)).toBe('first');
      await eventually(async () => (await kv.get(k)) === null);
      expect(await kv.setIfAbsent(k, 'second')).toBe(true);
      expect(await kv.get(k)).toBe('second');
      expect(await kv.ttl(k)).toBeNull();
    });

    it(`gives the value to exactly one of ${PARALLEL} parallel take callers and removes the key`, async () => {
      const k = key('single-use');
      await kv.set(k, 'token-value');
      const results = await Promise.all(Array.from({ length: PARALLEL }, () => kv.take(k)));
      expect(results.filter((r) => r !== null)).toEqual(['token-value']);
      expect(await kv.get(k)).toBeNull();
      expect(await kv.take(key('never-set'))).toBeNull();
    });

    it('deletes a key and tells whether it existed', async () => {
      const k = key('deletable');
      await kv.set(k, 'x');
      expect(await kv.delete(k)).toBe(true);
      expect(await kv.get(k)).toBeNull();
      expect(await kv.delete(k)).toBe(false);
    });

    it(`counts from zero, by one or by the given step, and loses none of ${PARALLEL} parallel increments`, async () => {
      const k = key('counter');
      expect(await kv.increment(k)).toBe(1);
      expect(await kv.increment(k, { by: 5 })).toBe(6);
      expect(await kv.increment(k, { by: -2 })).toBe(4);
      const results = await Promise.all(Array.from({ length: PARALLEL }, () => kv.increment(k)));
      expect([...results].sort((a, b) => a - b)).toEqual(Array.from({ length: PARALLEL }, (_, i) => 5 + i));
      expect(await kv.get(k)).toBe(String(4 + PARALLEL));
      expect(await kv.ttl(k)).toBeNull();
    });

    it('keeps a counter to a fixed window: the ttl set at creation survives later increments', async () => {
      const k = key('window');
      const windowMs = 100;
      expect(await kv.increment(k, { ttlMs: windowMs })).toBe(1);
      const first = await kv.ttl(k);
      expect(first).toBeGreaterThan(0);
      expect(first).toBeLessThanOrEqual(windowMs);
      expect(await kv.increment(k, { ttlMs: 60_000 })).toBe(2);
      expect(await kv.ttl(k)).toBeLessThanOrEqual(windowMs);

      await eventually(async () => (await kv.get(k)) === null);
      expect(await kv.increment(k, { ttlMs: 60_000 })).toBe(1);
      expect(await kv.ttl(k)).toBeGreaterThan(windowMs);
    });

    it('rejects incrementing a value that is not an integer and leaves it unchanged', async () => {
      const k = key('not-a-number');
      await kv.set(k, 'abc');
      await expect(kv.increment(k)).rejects.toThrow(/not an integer/);
      expect(await kv.get(k)).toBe('abc');
    });
  });
}
