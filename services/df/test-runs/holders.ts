import { randomUUID } from 'node:crypto';
import type { KeyValueStore } from '#shared/kv/index.js';
import type { SessionHolders } from '../core/holders.js';

/**
 * How long the mark that a process runs a run lasts unless its sweeper renews it (every 2 s). A run
 * without one was left by a process that stopped without ending it: any process's sweeper ends it.
 */
const RUN_MARK_TTL_MS = 15_000;
const runKey = (runId: string) => `df:test-run:holder:${runId}`;

/** The marks, in the key-value store every replica shares, that a process runs a run. */
export class RunMarks {
  /** This process, as the holder of the runs it runs. */
  private readonly instance = randomUUID();

  constructor(private readonly kv: KeyValueStore) {}

  /** Marks (again) that this process runs the run. */
  mark(runId: string): Promise<void> {
    return this.kv.set(runKey(runId), this.instance, { ttlMs: RUN_MARK_TTL_MS });
  }

  /** Whether some process marked the run within the mark's time to live. */
  async held(runId: string): Promise<boolean> {
    return (await this.kv.get(runKey(runId))) !== null;
  }

  /** The run has ended here: no mark. */
  async forget(runId: string): Promise<void> {
    await this.kv.delete(runKey(runId));
  }
}

/**
 * The device sessions of the shards this process runs, as holders the busy-device watchdog sees
 * (docs/modules/device-health.md, "Never busy for nothing"): a shard's session is claimed `run-shard`
 * as soon as it opens and is present while its shard runs here (written at every watchdog tick with the
 * replica's other holders). A process that dies stops vouching for its shards' sessions, and the
 * watchdog of any replica ends them `abandoned` and gives their devices back.
 */
export class ShardHolders {
  private readonly held = new Set<string>();

  constructor(private readonly holders: Pick<SessionHolders, 'claim' | 'addSource'> | null) {
    holders?.addSource(() => this.held);
  }

  /** Vouches for a shard's session from now on (claims it `run-shard`, present now). */
  async hold(sessionId: string): Promise<void> {
    this.held.add(sessionId);
    await this.holders?.claim(sessionId, 'run-shard');
  }

  /** Stops vouching for a shard's session (it has ended). */
  letGo(sessionId: string): void {
    this.held.delete(sessionId);
  }
}
