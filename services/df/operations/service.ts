import { inTick, setIntervalOutsideTrace } from '#shared/tracing/index.js';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { operationStream } from '#events/df/operations.js';
import { findOperation, openOperations, type OperationRecord } from '#projections/df-operations/index.js';
import type { Database } from '#shared/db/index.js';
import { commandContext, handleCommand, type CommandActor, type CommandContext } from '#shared/es/index.js';
import type { EventStore } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import type { KeyValueStore } from '#shared/kv/index.js';
import type { ReadModelWaiter } from '../../platform.js';
import { operationDecider, type OperationCommand } from './decide.js';

/** How long a runner's liveness key lives without being renewed: a dead runner's jobs are failed this long after its death. */
export const RUNNER_TTL_MS = 10_000;
const RENEW_MS = 3_000;
const REAP_MS = 5_000;
/** A pending operation nobody picked up within this time lost the process that started it. */
const PENDING_GRACE_MS = 60_000;
const READ_MODELS = ['df-operations'];

const runnerKey = (runner: string) => `df:op-runner:${runner}`;

/** What a job gets: a way to report progress (0–100, throttled), and a signal aborted when the process stops. */
export interface JobContext {
  progress(percent: number): void;
  signal: AbortSignal;
}

export interface OperationOwner {
  userId: number;
  companyId: number;
  workspaceId: number;
}

/**
 * Long-running operations (installs, catalog backfills, later exports): recorded as events on
 * `df-operation-<id>`, so any replica answers `GET /df/api/operations/{id}` from the read model.
 * Each process is a runner with a liveness key in the key-value store (renewed every 3 s, living 10 s);
 * every replica's reaper fails the running operations of runners whose key is gone, so a job whose
 * process died is marked `failed` with a reason, never left `running`.
 */
export class OperationService {
  /** This process as a runner. */
  readonly runner = `${process.pid}-${randomUUID()}`;
  private readonly jobs = new Map<string, AbortController>();
  private timers: NodeJS.Timeout[] = [];
  private reaping: Promise<void> | null = null;

  constructor(
    private readonly deps: {
      store: EventStore;
      db: Database;
      kv: KeyValueStore;
      logger: Logger;
      readonly readModels: ReadModelWaiter;
      now: () => Date;
    },
  ) {}

  private actor(owner: Partial<OperationOwner> & { actor?: string }): CommandActor {
    return { actorId: owner.actor ?? owner.userId ?? 'system', companyId: owner.companyId ?? null, workspaceId: owner.workspaceId ?? null };
  }

  private async run(command: OperationCommand, context: CommandContext) {
    return handleCommand({ store: this.deps.store, streamId: operationStream(command.operationId), decider: operationDecider, command, context });
  }

  private async settle(position: bigint | null) {
    if (position !== null) await this.deps.readModels.waitFor(position, { names: READ_MODELS });
  }

  /**
   * Records a new operation and runs `work` in the background; answers its id once the operation is
   * readable. The job's result becomes `result`; a thrown `AppError` becomes `error` with its code.
   */
  async start(type: string, owner: OperationOwner, target: Record<string, unknown>, work: (job: JobContext) => Promise<Record<string, unknown>>): Promise<string> {
    const operationId = randomUUID();
    const context = commandContext(this.deps, this.actor(owner));
    const started = await this.run({ type: 'StartOperation', operationId, operationType: type, companyId: owner.companyId, workspaceId: owner.workspaceId, createdBy: owner.userId, target }, context);
    await this.run({ type: 'RunOperation', operationId, runner: this.runner }, commandContext(this.deps, this.actor(owner)));
    await this.settle(started.position);
    const controller = new AbortController();
    this.jobs.set(operationId, controller);
    let reported = 0;
    let reportedAt = 0;
    let reporting: Promise<unknown> = Promise.resolve();
    const job: JobContext = {
      signal: controller.signal,
      progress: (percent) => {
        const p = Math.max(0, Math.min(99, Math.floor(percent)));
        const at = Date.now();
        if (p <= reported || (p - reported < 5 && at - reportedAt < 1000)) return;
        reported = p;
        reportedAt = at;
        reporting = reporting.then(() => this.run({ type: 'ReportProgress', operationId, progress: p }, commandContext(this.deps, this.actor(owner)))).catch((err: unknown) => this.deps.logger.warn({ err, operationId }, 'recording progress failed'));
      },
    };
    void (async () => {
      let end: OperationCommand;
      try {
        const result = await work(job);
        end = { type: 'SucceedOperation', operationId, result };
      } catch (err) {
        const error = err instanceof AppError ? { code: err.code, message: err.message } : { code: 'INTERNAL_ERROR', message: (err as Error).message || 'The operation failed' };
        if (!(err instanceof AppError)) this.deps.logger.error({ err, operationId, type }, 'an operation failed');
        end = controller.signal.aborted ? { type: 'FailOperation', operationId, error: { code: 'RUNNER_STOPPED', message: 'The process running it stopped before it finished' } } : { type: 'FailOperation', operationId, error };
      }
      await reporting;
      this.jobs.delete(operationId);
      await this.run(end, commandContext(this.deps, this.actor(owner))).catch((err: unknown) => this.deps.logger.error({ err, operationId }, 'recording the end of an operation failed'));
    })();
    return operationId;
  }

  /** One operation of the workspace (404 otherwise). */
  async get(scope: { companyId: number; workspaceId: number }, operationId: string): Promise<OperationRecord> {
    const found = await findOperation(this.deps.db, scope, operationId);
    if (!found) throw new AppError('NOT_FOUND', 'Operation not found');
    return found;
  }

  /** Operations of a type, not finished, whose target names `value` under `key` (an install of a version, say). */
  running(type: string, key: string, value: string): Promise<OperationRecord[]> {
    return openOperations(this.deps.db, { type, targetKey: key, targetValue: value });
  }

  /** Starts renewing this runner's liveness and reaping dead runners' operations. */
  async watch(): Promise<void> {
    await this.deps.kv.set(runnerKey(this.runner), '1', { ttlMs: RUNNER_TTL_MS });
    this.timers.push(
      setIntervalOutsideTrace(() => void this.deps.kv.set(runnerKey(this.runner), '1', { ttlMs: RUNNER_TTL_MS }).catch((err: unknown) => this.deps.logger.warn({ err }, 'renewing the operation runner failed')), RENEW_MS),
      setIntervalOutsideTrace(() => void this.reap(), REAP_MS),
    );
    for (const t of this.timers) t.unref();
    void this.reap();
  }

  /**
   * Fails the open operations whose runner is gone (its liveness key expired), and pending ones nobody
   * picked up: the process that ran them died.
   */
  async reap(): Promise<void> {
    if (this.reaping) return this.reaping;
    // A reap that fails operations is a span (`operations.reap`); one that finds none lost makes none.
    this.reaping = inTick('operations.reap', async (tick) => {
      try {
        const now = this.deps.now().getTime();
        for (const op of await openOperations(this.deps.db)) {
          if (this.jobs.has(op.id)) continue;
          const lost = op.runner ? (await this.deps.kv.get(runnerKey(op.runner))) === null : now - Date.parse(op.createdAt) > PENDING_GRACE_MS;
          if (!lost) continue;
          tick.count('operations.failed');
          await tick.work(async () => {
            this.deps.logger.warn({ operationId: op.id, type: op.type, runner: op.runner }, 'failing an operation whose process died');
            await this.run(
              { type: 'FailOperation', operationId: op.id, error: { code: 'RUNNER_LOST', message: 'The process running this operation stopped before it finished' } },
              commandContext(this.deps, this.actor({ actor: 'system', companyId: op.companyId, workspaceId: op.workspaceId })),
            );
          });
        }
      } catch (err) {
        this.deps.logger.warn({ err }, 'reaping operations failed');
      } finally {
        this.reaping = null;
      }
    });
    return this.reaping;
  }

  /** Stops the timers; jobs still running here are told to stop and are failed as stopped. */
  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    for (const controller of this.jobs.values()) controller.abort();
    const deadline = Date.now() + 5_000;
    while (this.jobs.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await this.deps.kv.delete(runnerKey(this.runner)).catch(() => undefined);
  }
}
