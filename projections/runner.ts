import type { Logger } from 'pino';
import { applySchema, type Database, type Sql } from '#shared/db/index.js';
import type { EventStore, Subscription } from '#shared/es/types.js';
import { AppError } from '#shared/errors.js';
import type { LeaseRow, ProjectionLeases } from './leases.js';
import { applyAll, projectionSchemaName, type Projection } from './types.js';

const CHECKPOINTS_DDL = `
CREATE TABLE IF NOT EXISTS projection_checkpoints (
  name text PRIMARY KEY,
  position bigint NOT NULL,
  version integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
)`;

export interface ProjectionRunnerOptions {
  store: EventStore;
  db: Database;
  projections: readonly Projection[];
  logger?: Logger;
  /** Events applied in one transaction. */
  batchSize?: number;
  /**
   * How often the runner looks at the head of the log and the stored checkpoints when no signal
   * arrives (a missed wake-up, a rebuild started by another process); it wakes only the loops that
   * have something to do.
   */
  idlePollMs?: number;
  /**
   * Leases, when several runners share the database: each projection is applied only by the runner
   * holding its lease, and taken over by another when the holder stops renewing it (projections/leases.ts).
   * Without, this runner applies every projection.
   */
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

/** Converts what a driver returns for int8 (string, number or bigint) to bigint. */
const toBigInt = (v: unknown): bigint => (typeof v === 'bigint' ? v : BigInt(String(v)));

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
    for (const table of projection.tables) await tx.query(`DELETE FROM ${table}`);
    await tx.query(
      `INSERT INTO projection_checkpoints (name, position, version) VALUES ($1, 0, $2)
       ON CONFLICT (name) DO UPDATE SET position = 0, version = $2, updated_at = now()`,
      [projection.name, projection.version],
    );
  });
}

/**
 * Runs one loop per projection: read the next batch of its events after the checkpoint, apply them
 * and move the checkpoint in the same transaction, and repeat; wait for a signal when caught up.
 *
 * The checkpoint row is locked and compared in every transaction, so a rebuild from another process,
 * or a second replica, is noticed and the loop restarts from the stored position instead of writing
 * over it.
 */
export class ProjectionRunner {
  private readonly loops = new Map<string, ProjectionLoop>();
  /** Changes of any loop's position so far (`version`). */
  private moves = 0n;
  private doorbell: Subscription | null = null;
  private running = false;
  private poller: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private leaser: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;
  /** When the leases were last renewed (this process's monotonic clock), for giving them up when renewals fail. */
  private renewedAt = 0;

  constructor(private readonly options: ProjectionRunnerOptions) {
    for (const p of options.projections) {
      if (this.loops.has(p.name)) throw new Error(`Two projections are named ${p.name}`);
      this.loops.set(p.name, new ProjectionLoop(p, options, () => (this.moves += 1n)));
    }
  }

  /** Creates tables, rebuilds projections whose version changed, and starts every loop. */
  async start(): Promise<void> {
    const { db } = this.options;
    await applySchema(db, 'projection_checkpoints', CHECKPOINTS_DDL);
    await this.options.leases?.migrate();
    for (const loop of this.loops.values()) await loop.prepare();
    this.running = true;
    if (this.options.leases) await this.startLeases(this.options.leases);
    for (const loop of this.loops.values()) loop.start();
    this.startDoorbell();
    const every = this.options.idlePollMs ?? 1000;
    this.poller = setInterval(() => {
      this.polling ??= this.poll()
        .catch((err: unknown) => this.options.logger?.warn({ err }, 'projection poll failed'))
        .finally(() => (this.polling = null));
    }, every);
    this.poller.unref();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
    if (this.leaser) clearInterval(this.leaser);
    this.leaser = null;
    await this.polling;
    await this.renewing;
    await this.doorbell?.close();
    this.doorbell = null;
    await Promise.all([...this.loops.values()].map((l) => l.stop()));
    // Handed over at once rather than when they expire.
    await this.options.leases?.release().catch((err: unknown) => this.options.logger?.warn({ err }, 'could not release projection leases'));
  }

  /** Takes the free leases, then renews them three times per lease time. */
  private async startLeases(leases: ProjectionLeases): Promise<void> {
    await this.renewLeases(leases);
    this.leaser = setInterval(() => {
      this.renewing ??= this.renewLeases(leases)
        .catch((err: unknown) => {
          this.options.logger?.warn({ err }, 'projection lease renewal failed');
          // Past the lease time without a renewal another runner may hold them: stop writing (the
          // fence in every batch refuses anyway; this keeps the loops from trying).
          if (performance.now() - this.renewedAt >= leases.ttlMs) for (const loop of this.loops.values()) loop.setLease(null);
        })
        .finally(() => (this.renewing = null));
    }, Math.max(50, Math.floor(leases.ttlMs / 3)));
    this.leaser.unref();
  }

  private async renewLeases(leases: ProjectionLeases): Promise<void> {
    const held = await leases.renew([...this.loops.keys()]);
    this.renewedAt = performance.now();
    for (const [name, loop] of this.loops) {
      const epoch = held.get(name) ?? null;
      if (loop.setLease(epoch)) this.options.logger?.info({ projection: name, holder: leases.holder, held: epoch !== null }, epoch !== null ? 'projection lease taken' : 'projection lease lost');
    }
  }

  /** Who holds each projection's lease (empty without leases). */
  async leaseHolders(): Promise<LeaseRow[]> {
    return this.options.leases ? this.options.leases.all() : [];
  }

  /**
   * The backstop of the doorbell, two queries for all loops: the head of the log, and every stored
   * checkpoint. A loop is woken when the log moved past what it last found, or when its checkpoint was
   * moved by someone else (a rebuild, another replica); an idle platform reads no events at all.
   */
  private async poll(): Promise<void> {
    const head = await this.options.store.headPosition();
    const r = await this.options.db.query<{ name: string; position: unknown }>('SELECT name, position FROM projection_checkpoints');
    const stored = new Map(r.rows.map((row) => [row.name, toBigInt(row.position)]));
    for (const [name, loop] of this.loops) {
      const moved = stored.has(name) && stored.get(name) !== loop.position;
      if (moved || (head > loop.idleAt && head > loop.position)) loop.wake();
    }
  }

  /**
   * One live subscription for every loop of the process, filtered to the event types any of them
   * handles: each new event wakes only the loops that handle its type. (A subscription per loop would
   * have every append read the log once per projection.) Events are only the doorbell: each loop
   * reads its own batches after its checkpoint.
   */
  private startDoorbell(): void {
    const { store } = this.options;
    const byType = new Map<string, ProjectionLoop[]>();
    for (const loop of this.loops.values()) {
      for (const type of loop.eventTypes) byType.set(type, [...(byType.get(type) ?? []), loop]);
    }
    if (byType.size === 0) return;
    void store
      .headPosition()
      .then((head) => {
        if (!this.running) return;
        const sub = store.subscribe({ after: head, filter: { eventTypes: [...byType.keys()] } });
        this.doorbell = sub;
        void (async () => {
          try {
            // A loop following another runner's lease is not woken per event: the holder moves the
            // checkpoint it follows, which the poll notices (and a waiting reader looks every 10 ms).
            for await (const event of sub) for (const loop of byType.get(event.type) ?? []) if (!loop.following) loop.wake();
          } catch (err) {
            this.options.logger?.warn({ err }, 'projection doorbell ended');
          }
        })();
      })
      .catch((err: unknown) => this.options.logger?.warn({ err }, 'projection doorbell failed to start'));
  }

  /** Wakes the loops at once (after a local append) instead of at their next poll. */
  notify(): void {
    for (const loop of this.loops.values()) loop.wake();
  }

  status(): ProjectionStatus[] {
    return [...this.loops.values()].map((l) => l.status());
  }

  /** How far one projection has applied the log; undefined for a name this runner does not run. */
  positionOf(name: string): bigint | undefined {
    return this.loops.get(name)?.position;
  }

  /**
   * A number that changes whenever any projection of this runner moves (rebuilds included): what caches
   * of read-model answers compare, once per request, without building every projection's status.
   */
  version(): bigint {
    return this.moves;
  }

  /**
   * Resolves once every named projection (all when `names` is empty) has processed the log up to
   * `position`; throws 503 when that takes longer than `timeoutMs`. This is read-your-writes: a
   * command answers with its position, and a query waits for it before reading.
   */
  async waitFor(position: bigint, options: { names?: readonly string[]; timeoutMs?: number } = {}): Promise<void> {
    const loops = options.names?.length
      ? options.names.map((n) => {
          const l = this.loops.get(n);
          if (!l) throw new Error(`Unknown projection ${n}`);
          return l;
        })
      : [...this.loops.values()];
    const timeoutMs = options.timeoutMs ?? 5000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new AppError('SERVICE_UNAVAILABLE', 'Read model is behind; try again shortly')),
        timeoutMs,
      );
    });
    try {
      await Promise.race([Promise.all(loops.map((l) => l.reach(position))), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** True when every loop reaches the head of the log, as it was when asked, within `timeoutMs`. */
  async caughtUp(timeoutMs = 1000): Promise<boolean> {
    const head = await this.options.store.headPosition();
    try {
      await this.waitFor(head, { timeoutMs });
      return true;
    } catch {
      return false;
    }
  }
}

class ProjectionLoop {
  private at = 0n;
  /** How far the loop has applied the log; every change is told to the runner (`version`). */
  get position(): bigint {
    return this.at;
  }
  set position(position: bigint) {
    if (position === this.at) return;
    this.at = position;
    this.moved();
  }
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
    private readonly options: ProjectionRunnerOptions,
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
    this.position = stored;
    this.idleAt = 0n;
  }

  /**
   * Another runner holds the lease: follow its stored checkpoint, so read-your-writes waits in this
   * process still resolve. Never progress (the loop sleeps until woken or, with waiters, briefly).
   */
  private async follow(): Promise<boolean> {
    const r = await this.options.db.query<{ position: unknown }>('SELECT position FROM projection_checkpoints WHERE name = $1', [this.projection.name]);
    const stored = r.rows[0] ? toBigInt(r.rows[0].position) : 0n;
    if (stored !== this.position) {
      this.position = stored;
      this.idleAt = 0n;
    }
    return false;
  }

  /** Applies one batch; returns whether it applied any event. */
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
    const complete = events.length < this.batchSize;
    const last = events.length > 0 ? events[events.length - 1]!.position : this.position;
    const target = complete && head > last ? head : last;
    if (events.length === 0 && target <= this.position) {
      // Idle: still notice a rebuild started elsewhere, which moves the stored checkpoint back.
      const r = await db.query<{ position: unknown }>('SELECT position FROM projection_checkpoints WHERE name = $1', [this.projection.name]);
      const stored = r.rows[0] ? toBigInt(r.rows[0].position) : 0n;
      if (stored !== this.position) {
        this.adopt(stored);
        return true;
      }
      if (head > this.idleAt) this.idleAt = head;
      return false;
    }
    const moved = await db.transaction(async (tx) => {
      if (leases && epoch !== null && !(await leases.fence(tx, this.projection.name, epoch))) return 'fenced' as const;
      const r = await tx.query<{ position: unknown }>(
        'SELECT position FROM projection_checkpoints WHERE name = $1 FOR UPDATE',
        [this.projection.name],
      );
      const stored = r.rows[0] ? toBigInt(r.rows[0].position) : 0n;
      if (stored !== this.position) return stored;
      await applyAll(this.projection, tx, events);
      await tx.query('UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE name = $1', [
        this.projection.name,
        target.toString(),
      ]);
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
    return events.length > 0;
  }
}

/**
 * Replays a projection from zero in this process (the rebuild command). When a running service picks
 * the reset up first, this stops and says so: the service finishes the replay.
 */
export async function rebuildProjection(
  store: EventStore,
  db: Database,
  projection: Projection,
  options: { batchSize?: number; onProgress?: (applied: number, position: bigint) => void } = {},
): Promise<{ applied: number; handedOver: boolean }> {
  await resetProjection(db, projection);
  const batchSize = options.batchSize ?? 5000;
  let position = 0n;
  let applied = 0;
  const read = async (after: bigint) => {
    const head = await store.headPosition();
    const events = await store.readAll({ after, maxCount: batchSize, filter: { eventTypes: projection.eventTypes } });
    return { head, events };
  };
  let next = read(position);
  for (;;) {
    const { head, events } = await next;
    const complete = events.length < batchSize;
    const last = events.length > 0 ? events[events.length - 1]!.position : position;
    const target = complete && head > last ? head : last;
    // The next page is read while this one is applied: a server's pool runs both at once (PGlite runs
    // them in turn). A read that fails is reported by the await above on the next turn.
    if (!complete) {
      next = read(last);
      next.catch(() => undefined);
    }
    const handedOver = await db.transaction(async (tx) => {
      const r = await tx.query<{ position: unknown }>(
        'SELECT position FROM projection_checkpoints WHERE name = $1 FOR UPDATE',
        [projection.name],
      );
      if (!r.rows[0] || toBigInt(r.rows[0].position) !== position) return true;
      await applyAll(projection, tx, events);
      await tx.query('UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE name = $1', [
        projection.name,
        target.toString(),
      ]);
      return false;
    });
    // A running service took the reset over and replays it itself.
    if (handedOver) return { applied, handedOver: true };
    applied += events.length;
    position = target;
    options.onProgress?.(applied, position);
    if (complete) return { applied, handedOver: false };
  }
}
