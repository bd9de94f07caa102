import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '#test/helpers/postgres.js';
import { openPostgres } from '../db/postgres.js';
import type { Database } from '../db/types.js';
import { liveProcesses, PROCESS_STALE_MS, ProcessRegistry, type ProcessObservability } from './registry.js';

const off: ProcessObservability = {
  metrics: { served: false, port: null, tokenProtected: false },
  tracing: { enabled: false, sampler: null, ratio: null, protocol: null, serviceName: null },
};

describe('the installation’s list of processes (PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Database;
  const failures: unknown[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    db = openPostgres(database.url, { max: 3 });
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it('lists each started process with its services and setup, leaves out one not heard of for 45 s, and drops one that stops', async () => {
    const df = new ProcessRegistry(db, { services: ['df'], observability: { ...off, metrics: { served: true, port: 9464, tokenProtected: false } } }, (err) => failures.push(err));
    const gateway = new ProcessRegistry(db, { services: ['gateway'], observability: { ...off, metrics: { served: true, port: null, tokenProtected: true } } }, (err) => failures.push(err));
    await df.start();
    await gateway.start();
    const listed = await liveProcesses(db);
    expect(listed.map((p) => [p.instanceId, p.services, p.metrics])).toEqual([
      [df.instanceId, ['df'], { served: true, port: 9464, tokenProtected: false }],
      [gateway.instanceId, ['gateway'], { served: true, port: null, tokenProtected: true }],
    ]);

    // The df process dies without a word: its last renewal is older than the limit.
    await db.query(`UPDATE platform_processes SET seen_at = now() - $2 * interval '1 millisecond' WHERE instance_id = $1`, [df.instanceId, PROCESS_STALE_MS + 1_000]);
    expect((await liveProcesses(db)).map((p) => p.instanceId)).toEqual([gateway.instanceId]);

    // A clean stop removes the row at once.
    await gateway.stop();
    expect(await liveProcesses(db)).toEqual([]);
    await df.stop();
    expect(failures).toEqual([]);
  });
});
