import type { Logger } from 'pino';
import { applySchema, type Database } from '#shared/db/index.js';
import type { EventStore } from '#shared/es/index.js';
import { personalDataOf } from '#shared/pii/index.js';
import { batchTarget, lockCheckpoint, moveCheckpoint, resetProjection, storedCheckpoint, toBigInt } from './checkpoints.js';
import type { ProjectionLeases } from './leases.js';
import { applyAll, projectionSchemaName, type Projection } from './types.js';

/** What a loop takes of the runner's options. */
export interface ProjectionLoopOptions {
  store: EventStore;
  db: Database;
  logger?: Logger;
  /** Events applied in one transaction. */
  batchSize?: number;
  leases?: ProjectionLeases;
}

export interface ProjectionStatus {
  name: string;
  position: bigint;
  running: boolean;
  /** Waiting to be woken (caught up, nothing asked of it): an idle loop reads nothing. */
  asleep: boolean;
  lastError: string | null;
  /** With leases: whether this runner holds the projection's lease (else it follows the holder's checkpoint). */
  held?: boolean;
}

interface Waiter {
  position: bigint;
  resolve: () => void;
}

/**
 * One projection's loop: reads the next batch of its events after the checkpoint, applies them and moves
 * the checkpoint in the same transaction, and sleeps until woken when caught up.
 */
export class ProjectionLoop {
  private at = 0n;
  /** How far the loop has applied the log; every change is told to the runner (`version`). */
  get position(): bigint {
    return this.at;
  }
  set position(position: bigint) {
    if (position === this.at) return;
    this.at = position;
    this.moves += 1n;
    this.moved();
  }
  /** How many times the loop's position changed (rebuilds included): what a cache of its answers compares. */
  moves = 0n;
  /** Head of the log the loop last found nothing new up to; its checkpoint covers at least this. */
  idleAt = 0n;
  private running = false;
  private lastError: string | null = null;
  private wakeUp: (() => void) | null = null;
  private pendingWake = false;
  private asleep = false;
  private done: Promise<void> | null = null;
  private waiters: Waiter[] = [];
  private readonly batchSize: number;
  /** With leases: the epoch of this runner's lease on the projection, or null while another holds it. */
  private lease: bigint | null = null;

  constructor(
    private readonly projection: Projection,
    private readonly options: ProjectionLoopOptions,
    private readonly moved: () => void,
  ) {
    this.batchSize = options.batchSize ?? 500;
  }

  async prepare(): Promise<void> {
    const { db } = this.options;
    await applySchema(db, projectionSchemaName(this.projection), this.projection.schema);
    const r = await db.query<{ position: unknown; version: number }>(
      'SELECT position, version FROM projection_checkpoints WHERE name = $1',
      [this.projection.name],
    );
    const row = r.rows[0];
    if (!row || row.version !== this.projection.version) {
      if (row) this.options.logger?.info({ projection: this.projection.name }, 'projection version changed; rebuilding');
      await resetProjection(db, this.projection);
      this.position = 0n;
    } else {
      this.position = toBigInt(row.position);
    }
  }

  get eventTypes(): readonly string[] {
    return this.projection.eventTypes;
  }

  /** Starts the loop; the runner's doorbell wakes it when events of its types arrive. */
  start(): void {
    this.running = true;
    this.done = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.done;
  }

  wake(): void {
    if (this.wakeUp) {
      const w = this.wakeUp;
      this.wakeUp = null;
      w();
    } else {
      this.pendingWake = true;
    }
  }

  /** With leases, whether another runner holds this projection (this loop follows its checkpoint). */
  get following(): boolean {
    return this.options.leases !== undefined && this.lease === null;
  }

  /** Sets the lease's epoch (null: not held); answers whether holding changed. */
  setLease(epoch: bigint | null): boolean {
    const changed = (epoch === null) !== (this.lease === null);
    this.lease = epoch;
    if (changed) this.wake();
    return changed;
  }

  reach(position: bigint): Promise<void> {
    if (this.position >= position || this.idleAt >= position) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.push({ position, resolve });
      this.wake();
    });
  }

  status(): ProjectionStatus {
    return {
      name: this.projection.name,
      position: this.position,
      running: this.running,
      asleep: this.asleep,
      lastError: this.lastError,
      ...(this.options.leases ? { held: this.lease !== null } : {}),
    };
  }

  private settleWaiters(): void {
    const reached = this.position > this.idleAt ? this.position : this.idleAt;
    this.waiters = this.waiters.filter((w) => {
      if (w.position <= reached) {
        w.resolve();
        return false;
      }
      return true;
    });
  }

  private async sleep(): Promise<void> {
    if (this.pendingWake || !this.running) {
      this.pendingWake = false;
      return;
    }
    // With waiters the head may be held back by another open transaction: look again soon. Otherwise
    // the loop sleeps until woken (doorbell, notify, a waiting reader, or the runner's poll).
    const ms = this.waiters.length > 0 ? 10 : null;
    this.asleep = ms === null;
    await new Promise<void>((resolve) => {
      const t =
        ms === null
          ? undefined
          : setTimeout(() => {
              this.wakeUp = null;
              resolve();
            }, ms);
      this.wakeUp = () => {
        clearTimeout(t);
        resolve();
      };
    });
    this.asleep = false;
    this.pendingWake = false;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      try {
        const progressed = await this.step();
        failures = 0;
        this.lastError = null;
        this.settleWaiters();
        if (!progressed) await this.sleep();
      } catch (err) {
        failures++;
        this.lastError = err instanceof Error ? err.message : String(err);
        this.options.logger?.error({ err, projection: this.projection.name }, 'projection step failed; retrying');
        // Back off so a poison event or a lost database does not spin the CPU.
        await new Promise((r) => setTimeout(r, Math.min(30_000, 100 * 2 ** Math.min(failures, 8))));
      }
    }
  }

  /** Someone else (a rebuild, another replica) moved the checkpoint: continue from theirs. */
  private adopt(stored: bigint): void {
    this.options.logger?.info({ projection: this.projection.name, from: String(stored) }, 'checkpoint moved elsewhere');
    // A rebuild may follow an erasure made in another process: keys kept here are read again.
    personalDataOf(this.options.store)?.keys.forget();
    this.position = stored;
    this.idleAt = 0n;
  }

  /**
   * Another runner holds the lease: follow its stored checkpoint, so read-your-writes waits in this
   * process still resolve. Never progress (the loop sleeps until woken or, with waiters, briefly).
   */
  private async follow(): Promise<boolean> {
    const stored = await storedCheckpoint(this.options.db, this.projection.name);
    if (stored !== this.position) {
      this.position = stored;
      this.idleAt = 0n;
    }
    return false;
  }

  /** Applies one batch; returns whether there may be more to read at once (a full batch, an adopted checkpoint). */
  async step(): Promise<boolean> {
    const { store, db, leases } = this.options;
    const epoch = this.lease;
    if (leases && epoch === null) return this.follow();
    const head = await store.headPosition();
    const events = await store.readAll({
      after: this.position,
      maxCount: this.batchSize,
      filter: { eventTypes: this.projection.eventTypes },
    });
    // Fewer than a full batch: every matching event up to `head` is in it, so the checkpoint may
    // move to `head` even past events of other types (needed for read-your-writes).
    const { complete, target } = batchTarget(events, this.batchSize, head, this.position);
    if (events.length === 0 && target <= this.position) {
      // Idle: still notice a rebuild started elsewhere, which moves the stored checkpoint back.
      const stored = await storedCheckpoint(db, this.projection.name);
      if (stored !== this.position) {
        this.adopt(stored);
        return true;
      }
      if (head > this.idleAt) this.idleAt = head;
      return false;
    }
    const moved = await db.transaction(async (tx) => {
      if (leases && epoch !== null && !(await leases.fence(tx, this.projection.name, epoch))) return 'fenced' as const;
      const stored = (await lockCheckpoint(tx, this.projection.name)) ?? 0n;
      if (stored !== this.position) return stored;
      await applyAll(this.projection, tx, events);
      await moveCheckpoint(tx, this.projection.name, target);
      return null;
    });
    if (moved === 'fenced') {
      // The lease expired or passed to another runner while this one was away: write nothing, follow.
      this.options.logger?.warn({ projection: this.projection.name }, 'projection lease lost before a batch; nothing written');
      this.lease = null;
      return false;
    }
    if (moved !== null) {
      this.adopt(moved);
      return true;
    }
    this.position = target;
    if (complete && head > this.idleAt) this.idleAt = head;
    // A batch shorter than a full one held every event up to the head: nothing is left to read until
    // the doorbell rings again (a ring during this step is kept, and the loop does not sleep through it).
    return events.length > 0 && !complete;
  }
}

