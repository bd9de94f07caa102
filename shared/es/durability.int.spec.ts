import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openPglite, openPostgres, type Database } from '#shared/db/index.js';
import { createTestDatabase } from '#test/helpers/postgres.js';
import { createSqlEventStore, migrateSqlEventStore } from './postgres-event-store.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const helper = join(repoRoot, 'test/helpers/append-and-die.ts');
const ACKS_BEFORE_KILL = 40;

interface Ack {
  revision: number;
  id: string;
  position: bigint;
}

/**
 * Runs the appending child, kills it with SIGKILL once it has acknowledged `acks` appends, and returns
 * every acknowledgement that reached this process (a few more may arrive between the kill and its death).
 */
function appendUntilKilled(args: string[], acks: number): Promise<Ack[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', helper, ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const received: Ack[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const [word, revision, id, position] = line.split(' ');
    if (word !== 'ack' || !revision || !id || !position) return;
    received.push({ revision: Number(revision), id, position: BigInt(position) });
    if (received.length === acks) child.kill('SIGKILL');
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`The child acknowledged ${received.length} of ${acks} appends in time. ${stderr}`));
    }, 45_000);
    // 'close' comes after stdout has been read to its end, so every ack the child wrote is in `received`.
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL' && received.length >= acks) resolve(received);
      else reject(new Error(`The child ended (${code ?? signal}) after ${received.length} acks. ${stderr}`));
    });
  });
}

/** Opens the store anew and checks that every acknowledged event survived, in its place. */
async function expectAcknowledgedEventsKept(db: Database, stream: string, acks: Ack[]): Promise<void> {
  await migrateSqlEventStore(db);
  const store = createSqlEventStore(db);
  const stored = await store.readStream(stream);

  expect(acks.map((a) => a.revision)).toEqual(acks.map((_, i) => i));
  for (const ack of acks) {
    expect(stored[ack.revision]).toMatchObject({ id: ack.id, revision: ack.revision, position: ack.position });
  }
  // Appends ran one after another, so at most the one in flight at the kill may exist unacknowledged.
  expect(stored.length - acks.length).toBeGreaterThanOrEqual(0);
  expect(stored.length - acks.length).toBeLessThanOrEqual(1);
  expect(stored.map((e) => e.revision)).toEqual(stored.map((_, i) => i));
  // The stream's bookkeeping survived with its events: the next revision is accepted.
  const checked = { type: 'DurabilityChecked', payload: {}, metadata: { occurredAt: new Date().toISOString() } };
  const next = await store.append(stream, [checked], stored.length - 1);
  expect(next.nextExpectedRevision).toBe(stored.length);
  await store.close();
}

describe('durability across a killed process', () => {
  it('PGlite on a data directory keeps every acknowledged append after SIGKILL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'es-durability-'));
    try {
      const acks = await appendUntilKilled(['pglite', dir, 'probe-1'], ACKS_BEFORE_KILL);
      const db = await openPglite(dir);
      try {
        await expectAcknowledgedEventsKept(db, 'probe-1', acks);
      } finally {
        await db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('the PostgreSQL server keeps every acknowledged append after SIGKILL', async () => {
    const { url, drop } = await createTestDatabase();
    try {
      const acks = await appendUntilKilled(['postgres', url, 'probe-1'], ACKS_BEFORE_KILL);
      const db = openPostgres(url, { max: 2 });
      try {
        await expectAcknowledgedEventsKept(db, 'probe-1', acks);
      } finally {
        await db.close();
      }
    } finally {
      await drop();
    }
  }, 60_000);
});
