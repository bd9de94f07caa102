import { setIntervalOutsideTrace } from '#shared/tracing/index.js';
import { applySchema } from '#shared/db/index.js';
import { READ_MODEL_BEHIND, type Subscription } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import { qaMetrics } from '#shared/metrics/index.js';
import { CHECKPOINTS_DDL, toBigInt } from './checkpoints.js';
import type { LeaseRow, ProjectionLeases } from './leases.js';
import { ProjectionLoop, type ProjectionLoopOptions, type ProjectionStatus } from './loop.js';
import type { Projection } from './types.js';

export { migrateCheckpoints, resetProjection } from './checkpoints.js';
export type { ProjectionStatus } from './loop.js';
export { rebuildProjection } from './rebuild.js';

export interface ProjectionRunnerOptions extends ProjectionLoopOptions {
  projections: readonly Projection[];
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
  /** Stops reporting `qa_projection_lag_seconds` from this runner. */
  private stopLag: (() => void) | null = null;

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
    this.stopLag = qaMetrics.projectionLagSeconds.use(() => this.lag());
    const every = this.options.idlePollMs ?? 1000;
    this.poller = setIntervalOutsideTrace(() => {
      this.polling ??= this.poll()
        .catch((err: unknown) => this.options.logger?.warn({ err }, 'projection poll failed'))
        .finally(() => (this.polling = null));
    }, every);
    this.poller.unref();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.stopLag?.();
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
    this.leaser = setIntervalOutsideTrace(() => {
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

  /**
   * How old the oldest event each projection this runner applies has still to apply is, in seconds
   * (0 when caught up): one head read, and one event read per projection that is behind.
   */
  async lag(): Promise<{ labels: { projection: string }; value: number }[]> {
    const head = await this.options.store.headPosition();
    const now = Date.now();
    const readings = [];
    for (const [name, loop] of this.loops) {
      if (loop.following) continue;
      const behind = loop.position < head && loop.idleAt < head;
      const [oldest] = behind ? await this.options.store.readAll({ after: loop.position, maxCount: 1, filter: { eventTypes: loop.eventTypes } }) : [];
      readings.push({ labels: { projection: name }, value: oldest ? Math.max(0, (now - oldest.recordedAt.getTime()) / 1000) : 0 });
    }
    return readings;
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
   * A number that changes whenever any projection of this runner moves (rebuilds included), or, with
   * `names`, whenever one of those moves: what caches of read-model answers compare, once per request,
   * without building every projection's status. A cache of one read model's answers names it, so that
   * writes to other read models (every `/v1` write moves the test-management ones) do not empty it.
   */
  version(names?: readonly string[]): bigint {
    if (!names) return this.moves;
    let sum = 0n;
    for (const name of names) sum += this.loops.get(name)?.moves ?? 0n;
    return sum;
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
        () => reject(new AppError('SERVICE_UNAVAILABLE', READ_MODEL_BEHIND)),
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

