import { applySchema, type Database, type Sql } from '#shared/db/index.js';
import type { RecordedEvent } from '#shared/es/index.js';
import { projectionSchemaName, type Projection } from './types.js';

export const CHECKPOINTS_DDL = `
CREATE TABLE IF NOT EXISTS projection_checkpoints (
  name text PRIMARY KEY,
  position bigint NOT NULL,
  version integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
)`;

/** Converts what a driver returns for int8 (string, number or bigint) to bigint. */
export const toBigInt = (v: unknown): bigint => (typeof v === 'bigint' ? v : BigInt(String(v)));

/** Creates the checkpoint table. */
export async function migrateCheckpoints(db: Sql): Promise<void> {
  await db.query(CHECKPOINTS_DDL);
}

/**
 * Empties a projection's tables and resets its checkpoint in one transaction; the next run (or a
 * running runner, which notices the checkpoint moved) replays it from position 0.
 */
export async function resetProjection(db: Database, projection: Projection): Promise<void> {
  await applySchema(db, 'projection_checkpoints', CHECKPOINTS_DDL);
  await applySchema(db, projectionSchemaName(projection), projection.schema);
  await db.transaction(async (tx) => {
    // The checkpoint's row first: a runner's batch under way (it holds the row) commits before the rows
    // are deleted, so the deletion sees what it wrote. Deleting first left those rows in place (the
    // DELETE's snapshot did not hold them), and a replay's ON CONFLICT DO NOTHING then kept them.
    await lockCheckpoint(tx, projection.name);
    for (const table of projection.tables) await tx.query(`DELETE FROM ${table}`);
    await tx.query(
      `INSERT INTO projection_checkpoints (name, position, version) VALUES ($1, 0, $2)
       ON CONFLICT (name) DO UPDATE SET position = 0, version = $2, updated_at = now()`,
      [projection.name, projection.version],
    );
  });
}

/** A projection's stored checkpoint (0 when it has none). */
export async function storedCheckpoint(db: Sql, name: string): Promise<bigint> {
  return (await readCheckpoint(db, name, '')) ?? 0n;
}

/** Locks a projection's checkpoint row in the caller's transaction; its position, or null when it has none. */
export function lockCheckpoint(tx: Sql, name: string): Promise<bigint | null> {
  return readCheckpoint(tx, name, ' FOR UPDATE');
}

async function readCheckpoint(db: Sql, name: string, lock: '' | ' FOR UPDATE'): Promise<bigint | null> {
  const r = await db.query<{ position: unknown }>(`SELECT position FROM projection_checkpoints WHERE name = $1${lock}`, [name]);
  return r.rows[0] ? toBigInt(r.rows[0].position) : null;
}

/** Moves a projection's stored checkpoint. */
export async function moveCheckpoint(tx: Sql, name: string, position: bigint): Promise<void> {
  await tx.query('UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE name = $1', [name, position.toString()]);
}

/**
 * Where a batch read after `position` moves the checkpoint: past its last event, or — when the batch is
 * shorter than `batchSize`, so every matching event up to `head` is in it — to `head`, even past events of
 * other types (what read-your-writes waits for).
 */
export function batchTarget(events: readonly RecordedEvent[], batchSize: number, head: bigint, position: bigint): { complete: boolean; last: bigint; target: bigint } {
  const complete = events.length < batchSize;
  const last = events.length > 0 ? events[events.length - 1]!.position : position;
  return { complete, last, target: complete && head > last ? head : last };
}
