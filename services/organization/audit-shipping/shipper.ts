import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { auditEntriesAfter, countAuditEventsAfter } from '#projections/org-audit/index.js';
import { Pauses } from '#shared/concurrency.js';
import { qaMetrics } from '#shared/metrics/index.js';
import type { Platform } from '../../platform.js';
import { acknowledge, lease, migrateAuditShipping, recordError, release, rewind, targetState } from './store.js';
import { HttpTarget, SyslogTarget, type ShippingTarget } from './targets.js';

/** Events sent in one batch. */
const BATCH = 200;
/** How long a process holds a target once it took it; renewed with every round. */
const LEASE_MS = 30_000;
/** A round that found nothing waits this long (or for `wake`) before looking again. */
const IDLE_MS = 500;
/** Pauses after failures: doubling from the first up to the last. */
const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 30_000;
/**
 * Syslog has no acknowledgement: a batch written to a connection that goes away soon after may not
 * have arrived. Batches written within this long before a connection was lost are sent again.
 */
const RESEND_WINDOW_MS = 5_000;

/** What the route answers of a target, for one company. */
export interface TargetReport {
  kind: 'syslog' | 'http';
  host: string;
  position: string;
  backlog: number;
  lastError: string | null;
  lastShippedAt: string | null;
}

/**
 * Ships the audit history (every company's audited events, in log order, as the export gives them) to
 * the installation's SIEM: each configured target (AUDIT_SYSLOG_URL, AUDIT_HTTP_URL) is followed by a
 * loop of its own from its stored position, at least once: the position moves only after a batch was
 * acknowledged, a failure is retried with growing pauses and never skipped, and of several processes
 * the one holding the target's lease ships.
 */
export class AuditShipper {
  readonly targets: ShippingTarget[] = [];
  private readonly owner = `${hostname()}:${process.pid}:${randomUUID()}`;
  private readonly loops: Promise<void>[] = [];
  private readonly pauses = new Pauses();
  private stopped = false;
  private stopBacklog: () => void = () => {};
  private migrated: Promise<void> | null = null;

  constructor(private readonly platform: Platform) {
    const { config } = platform;
    const sender = { hostname: hostname(), procId: process.pid };
    if (config.AUDIT_SYSLOG_URL) this.targets.push(new SyslogTarget(config.AUDIT_SYSLOG_URL, config.AUDIT_SYSLOG_CA, sender));
    if (config.AUDIT_HTTP_URL) this.targets.push(new HttpTarget(config.AUDIT_HTTP_URL, config.AUDIT_HTTP_TOKEN, config.AUDIT_HTTP_FORMAT, sender.hostname));
  }

  private ready(): Promise<void> {
    this.migrated ??= migrateAuditShipping(this.platform.db);
    return this.migrated;
  }

  async start(): Promise<void> {
    if (this.targets.length === 0) return;
    await this.ready();
    for (const target of this.targets) this.loops.push(this.follow(target));
    this.stopBacklog = qaMetrics.auditShippingBacklog.use(async () =>
      Promise.all(this.targets.map(async (t) => ({ labels: { kind: t.kind }, value: await countAuditEventsAfter(this.platform.db, (await targetState(this.platform.db, t.kind)).position) }))),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopBacklog();
    this.wake();
    await Promise.all(this.loops);
    for (const target of this.targets) {
      target.close();
      await release(this.platform.db, target.kind, this.owner).catch(() => undefined);
    }
  }

  /** Ends the pauses of every loop (new events were recorded, or the process stops). */
  wake(): void {
    this.pauses.wakeAll();
  }

  /** Where each target stands; the backlog counts `companyId`'s events only. */
  async report(companyId: number): Promise<TargetReport[]> {
    if (this.targets.length === 0) return [];
    await this.ready();
    return Promise.all(
      this.targets.map(async (t) => {
        const state = await targetState(this.platform.db, t.kind);
        return {
          kind: t.kind,
          host: t.host,
          position: state.position.toString(),
          backlog: await countAuditEventsAfter(this.platform.db, state.position, companyId),
          lastError: state.lastError,
          lastShippedAt: state.shippedAt,
        };
      }),
    );
  }

  private async follow(target: ShippingTarget): Promise<void> {
    const { db, logger } = this.platform;
    // Batches written to the current connection, newest last, for sending again when it is lost.
    let written: { from: bigint; at: number }[] = [];
    const lost: { rewindTo: bigint | null } = { rewindTo: null };
    target.onLost = () => {
      const recent = written.find((w) => w.at >= Date.now() - RESEND_WINDOW_MS);
      written = [];
      if (recent && (lost.rewindTo === null || recent.from < lost.rewindTo)) lost.rewindTo = recent.from;
    };
    let delay = FIRST_RETRY_MS;
    while (!this.stopped) {
      let wait = IDLE_MS;
      try {
        const back = lost.rewindTo;
        if (back !== null) {
          await rewind(db, target.kind, back);
          logger.info({ target: target.kind, position: back.toString() }, 'audit shipping: connection lost; sending its last batches again');
          lost.rewindTo = null;
        }
        const after = await lease(db, target.kind, this.owner, LEASE_MS);
        if (after !== null) {
          const items = await auditEntriesAfter(db, after, this.shippable(), BATCH);
          if (items.length > 0) {
            await target.send(items);
            written.push({ from: after, at: Date.now() });
            while (written.length > 0 && written[0]!.at < Date.now() - RESEND_WINDOW_MS) written.shift();
            await acknowledge(db, target.kind, this.owner, BigInt(items.at(-1)!.entry.position));
            if (items.length === BATCH) wait = 0;
          }
        }
        delay = FIRST_RETRY_MS;
      } catch (err) {
        qaMetrics.auditShippingFailures.inc({ kind: target.kind });
        const message = err instanceof Error ? err.message : String(err);
        logger.warn({ err, target: target.kind, host: target.host }, 'audit shipping failed; trying again');
        await recordError(db, target.kind, message).catch(() => undefined);
        wait = delay;
        delay = Math.min(delay * 2, LAST_RETRY_MS);
      }
      if (wait > 0 && !this.stopped) await this.pauses.pause(wait);
    }
  }

  /**
   * How far the history may be shipped: as far as both the audit's and the directory's read models have
   * got when they run in this process (the directory names the actors and subjects, as in the export);
   * elsewhere, whatever the audit's read model holds.
   */
  private shippable(): bigint | null {
    const { readModels } = this.platform;
    const positions = ['org-audit', 'org-directory'].map((name) => readModels.positionOf?.(name)).filter((p): p is bigint => p !== undefined);
    return positions.length === 0 ? null : positions.reduce((a, b) => (a < b ? a : b));
  }
}
