import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateCheckpoints } from '#projections/checkpoints.js';
import { openTestPostgres } from '#test/helpers/postgres.js';
import type { Database } from '#shared/db/index.js';
import { checkpointWaiter, settleTimeoutMs } from './read-models.js';

let db: Database;
let dispose: () => Promise<void>;

beforeAll(async () => {
  ({ db, dispose } = await openTestPostgres());
  await migrateCheckpoints(db);
  await db.query(`INSERT INTO projection_checkpoints (name, position, version) VALUES ('a', 10, 1), ('b', 10, 1)`);
});

afterAll(async () => {
  await dispose();
});

describe('checkpointWaiter (a process without the projections runner)', () => {
  it('waits past a takeover of the leases: the usual 5 s plus the lease time and a third', () => {
    expect(settleTimeoutMs(6_000)).toBe(13_000);
    expect(settleTimeoutMs(30_000)).toBe(45_000);
  });

  it('answers once every read model named has passed the position, not before', async () => {
    const waiter = checkpointWaiter(db, { timeoutMs: 60_000, pollMs: 5 });
    let settled = false;
    const waiting = waiter.waitFor(20n, { names: ['a', 'b'] }).then(() => (settled = true));
    await db.query(`UPDATE projection_checkpoints SET position = 20 WHERE name = 'a'`);
    // One of two has passed: a round of polls later the wait is still on.
    await waiter.waitFor(20n, { names: ['a'] });
    expect(settled).toBe(false);
    await db.query(`UPDATE projection_checkpoints SET position = 25 WHERE name = 'b'`);
    await waiting;
    expect(settled).toBe(true);
  });

  it('ends with 503 SERVICE_UNAVAILABLE when the read model stays behind past its time, a call’s own time winning', async () => {
    const waiter = checkpointWaiter(db, { timeoutMs: 60_000, pollMs: 5 });
    await expect(waiter.waitFor(1_000n, { names: ['a'], timeoutMs: 50 })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    await expect(checkpointWaiter(db, { timeoutMs: 50, pollMs: 5 }).waitFor(1_000n)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
