import { randomUUID } from 'node:crypto';
import type { Database } from '#shared/db/index.js';
import { assertAppendable, WrongExpectedRevisionError } from './types.js';
import type { AppendResult, EventFilter, EventStore, ExpectedRevision, NewEvent, ReadAllOptions, ReadStreamOptions, RecordedEvent, SubscribeOptions, Subscription } from './types.js';
import { appendGroup, GroupCommitter, type GroupCommitStats, type GroupMember, type MemberOutcome } from './group-commit.js';
import { appendAlone, currentRevision, groupMember } from './sql-append.js';
import { readHeadPosition, readLogPage, readStreamEvents, type LogPage } from './sql-reads.js';
import { MAX_EVENTS_PER_APPEND } from './sql-schema.js';
import { SqlSubscription } from './sql-subscription.js';
import { AppendListener, AppendNotifier, WakeSignal } from './sql-wake.js';
import { qaMetrics } from '../metrics/index.js';

// The SQL event store's parts: its tables and global positions (sql-schema.ts), appends (sql-append.ts,
// with group-commit.ts), reads (sql-reads.ts), subscriptions (sql-subscription.ts) and wake-ups (sql-wake.ts).
export { MAX_EVENTS_PER_APPEND, migrateSqlEventStore } from './sql-schema.js';

const DEFAULT_POLL_INTERVAL_MS = 250;
const DEFAULT_GROUPS_IN_FLIGHT = 4;

export interface SqlEventStoreOptions {
  /**
   * PostgreSQL server only: a connection string for one dedicated LISTEN connection, so appends made by
   * other processes wake this process's subscribers at once rather than at their next poll.
   */
  listenUrl?: string;
  /** How often a caught-up subscriber looks again when no wake-up arrives. Default 250 ms. */
  pollIntervalMs?: number;
  /**
   * Group commit (default on): appends that arrive while earlier ones are in flight are written together
   * in one transaction, each with its own revision check. See group-commit.ts.
   */
  groupCommit?: boolean;
  /** PostgreSQL server: how many groups may be on their way at once, each on its own connection. Default 4. */
  groupsInFlight?: number;
  /**
   * Groups appended without the history's chain (sql-chain.ts): only for measuring what the chain costs
   * (`bench/audit-chain.ts`, which disables the row trigger as well). The platform never sets it.
   */
  unchained?: boolean;
}

/** The SQL event store, with what it tells about group commit. */
export interface SqlEventStore extends EventStore {
  /** Group commit's counters; absent when it is off. */
  readonly groupCommitStats: GroupCommitStats | undefined;
}

/**
 * The event store on the SQL `Database` port (PostgreSQL server or PGlite). Run `migrateSqlEventStore`
 * first. `close()` ends subscriptions and the LISTEN connection; the database stays open for its owner.
 */
export function createSqlEventStore(db: Database, options: SqlEventStoreOptions = {}): SqlEventStore {
  return new SqlStore(db, options);
}

class SqlStore implements SqlEventStore {
  readonly kind: 'postgres' | 'pglite';
  private readonly wake = new WakeSignal();
  private readonly subscriptions = new Set<SqlSubscription>();
  private readonly listener: AppendListener | undefined;
  private readonly notifier: AppendNotifier | undefined;
  private readonly pollIntervalMs: number;
  private readonly groups: GroupCommitter | undefined;
  private closed = false;

  constructor(
    private readonly db: Database,
    options: SqlEventStoreOptions,
  ) {
    this.kind = db.dialect;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    // PGlite is one process's private database: the in-process signal reaches every subscriber.
    // Its own appends wake its subscribers at once; their NOTIFY, heard back, is not a second wake-up.
    const sender = randomUUID();
    this.listener =
      db.dialect === 'postgres' && options.listenUrl
        ? new AppendListener(options.listenUrl, () => this.wake.notify(), sender)
        : undefined;
    this.notifier = db.dialect === 'postgres' ? new AppendNotifier(db, sender) : undefined;
    if (options.groupCommit ?? true) {
      this.groups = new GroupCommitter({
        // PGlite runs one statement at a time anyway: a second group in flight would only queue there.
        maxInFlight: db.dialect === 'pglite' ? 1 : (options.groupsInFlight ?? DEFAULT_GROUPS_IN_FLIGHT),
        maxEvents: MAX_EVENTS_PER_APPEND,
        write: (members) => appendGroup(db, members, !options.unchained),
        writeAlone: (member) => appendAlone(db, member),
        onWritten: (written) => this.announceAppend(written),
      });
    }
  }

  async append(streamId: string, events: readonly NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    this.assertOpen();
    assertAppendable(streamId, events, expectedRevision, MAX_EVENTS_PER_APPEND);
    const member = groupMember(streamId, events, expectedRevision);
    const started = performance.now();
    const took = (result: 'written' | 'conflict' | 'error') =>
      qaMetrics.eventStoreAppendDuration.observe({ store: this.kind, outcome: result }, (performance.now() - started) / 1000);
    let outcome: MemberOutcome;
    try {
      if (this.groups) {
        outcome = await this.groups.append(member);
      } else {
        outcome = await appendAlone(this.db, member);
        if ('written' in outcome) this.announceAppend([member]);
      }
    } catch (err) {
      took('error');
      throw err;
    }
    took('written' in outcome ? 'written' : 'conflict');
    if ('written' in outcome) return outcome.written;
    throw new WrongExpectedRevisionError(streamId, expectedRevision, await currentRevision(this.db, streamId));
  }

  /** Group commit's counters; absent when it is off. */
  get groupCommitStats(): GroupCommitStats | undefined {
    return this.groups?.stats;
  }

  /**
   * Wakes the local subscribers the appends may concern (their streams and types are known here), and
   * (on a server) other processes' through one coalesced NOTIFY.
   */
  private announceAppend(written: readonly GroupMember[]): void {
    this.wake.notify({ streams: written.map((m) => m.streamId), types: written.flatMap((m) => m.types) });
    this.notifier?.notify();
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    return readStreamEvents(this.db, streamId, options);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    return (await this.readPage(options.after ?? 0n, options.maxCount ?? null, options.filter)).events;
  }

  /** One page after `after`, below the frontier (what subscriptions read). */
  readPage(after: bigint, maxCount: number | null, filter: EventFilter | undefined): Promise<LogPage> {
    return readLogPage(this.db, after, maxCount, filter);
  }

  async headPosition(): Promise<bigint> {
    this.assertOpen();
    return readHeadPosition(this.db);
  }

  subscribe(options: SubscribeOptions = {}): Subscription {
    this.assertOpen();
    this.listener?.start();
    const subscription = new SqlSubscription(this, this.wake, this.pollIntervalMs, options, (s) =>
      this.subscriptions.delete(s),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Appends already handed in are answered before the owner closes the database.
    await this.groups?.drain();
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    await this.listener?.stop();
    await this.notifier?.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('The event store is closed');
  }
}
