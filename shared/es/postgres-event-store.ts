import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Database } from '#shared/db/index.js';
import { isUnavailable } from '#shared/errors.js';
import { assertAppendable, DEFAULT_BATCH_SIZE, SingleUseSubscription, WrongExpectedRevisionError } from './types.js';
import type { AppendResult, EventFilter, EventMetadata, EventStore, ExpectedRevision, NewEvent, ReadAllOptions, ReadStreamOptions, RecordedEvent, SubscribeOptions, Subscription } from './types.js';
import { appendGroup, GroupCommitter, type GroupCommitStats, type GroupMember, type MemberOutcome } from './group-commit.js';

/*
 * Global positions.
 *
 * A sequence number is handed out when a row is inserted, but transactions commit in another order, so a
 * reader can see position 12 before 11 exists and skip 11 for ever. Here the position is built from the
 * writing transaction's id instead: (xid8 << 16) | index of the event within its append. A reader returns
 * only events whose transaction id is below the xmin of its own snapshot: every transaction older than
 * xmin has finished, and every transaction that starts later gets a larger id, so no event below that
 * "frontier" can appear afterwards. Positions are therefore not dense, but they only ever grow in the
 * order a reader may see them, which is what a one-number checkpoint needs.
 *
 * The price: any transaction of the cluster that holds a transaction id (a write anywhere, in any
 * database) holds the frontier back until it ends. That delays subscribers, it never reorders them; a
 * session left idle in a transaction stalls them, which `idle_in_transaction_session_timeout` bounds.
 * Such a transaction need not be an append and may never signal its end, so a subscriber that finds
 * committed events held back looks again after a few milliseconds, backing off to its poll interval.
 *
 * Subscribers wake on an in-process signal after each local append, on NOTIFY from other processes
 * (server only, with `listenUrl`), and otherwise poll; a missed wake-up only delays them.
 */

/** One append writes at most this many events, so its index fits in the 16 low bits of a position. */
export const MAX_EVENTS_PER_APPEND = 65_535;

const NOTIFY_CHANNEL = 'es_events_appended';
const DEFAULT_POLL_INTERVAL_MS = 250;
const MIN_RETRY_MS = 5;
const DEFAULT_GROUPS_IN_FLIGHT = 4;

// Positions below this come from transactions older than the snapshot's xmin. pg_current_snapshot() is
// the snapshot the statement itself reads with, so the bound and the rows read always agree.
const FRONTIER_SQL = `(pg_snapshot_xmin(pg_current_snapshot())::text::bigint << 16)`;

/** Per expected revision: moves the stream's revision on by $2 events and returns the new last revision. */
const STREAM_ADVANCE = {
  no_stream: `INSERT INTO es_streams (stream_id, revision) VALUES ($1, $2 - 1)
              ON CONFLICT (stream_id) DO NOTHING RETURNING revision`,
  stream_exists: `UPDATE es_streams SET revision = revision + $2 WHERE stream_id = $1 RETURNING revision`,
  any: `INSERT INTO es_streams (stream_id, revision) VALUES ($1, $2 - 1)
        ON CONFLICT (stream_id) DO UPDATE SET revision = es_streams.revision + $2 RETURNING revision`,
  exact: `UPDATE es_streams SET revision = revision + $2 WHERE stream_id = $1 AND revision = $4 RETURNING revision`,
} as const;

function expectedKind(expected: ExpectedRevision): keyof typeof STREAM_ADVANCE {
  return typeof expected === 'number' ? 'exact' : expected;
}

const EVENT_COLUMNS = `position, event_id, stream_id, revision, type, version, payload, metadata, recorded_at`;

const MIGRATION = [
  // stream_id and type are compared byte-wise ("C"), so `LIKE 'prefix%'` can use the b-tree indexes.
  `CREATE TABLE IF NOT EXISTS es_streams (
     stream_id text COLLATE "C" PRIMARY KEY,
     revision integer NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS es_events (
     transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
     index_in_append integer NOT NULL CHECK (index_in_append >= 0 AND index_in_append < ${MAX_EVENTS_PER_APPEND}),
     position bigint GENERATED ALWAYS AS ((transaction_id::text::bigint << 16) | index_in_append) STORED,
     event_id uuid NOT NULL,
     stream_id text COLLATE "C" NOT NULL,
     revision integer NOT NULL,
     type text COLLATE "C" NOT NULL,
     version integer NOT NULL,
     payload jsonb NOT NULL,
     metadata jsonb NOT NULL,
     recorded_at timestamptz NOT NULL DEFAULT now(),
     CONSTRAINT es_events_pkey PRIMARY KEY (position),
     CONSTRAINT es_events_stream_revision_key UNIQUE (stream_id, revision)
   )`,
  `CREATE INDEX IF NOT EXISTS es_events_type_position ON es_events (type, position)`,
];

/** Creates the event store's tables and indexes when they are missing; safe to run from many processes at once. */
export async function migrateSqlEventStore(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    // CREATE ... IF NOT EXISTS still races with itself across sessions; one migrator at a time.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('es_migrate'))`);
    for (const statement of MIGRATION) await tx.query(statement);
  });
}

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

type EventRow = {
  position: string | bigint;
  event_id: string;
  stream_id: string;
  revision: number;
  type: string;
  version: number;
  payload: unknown;
  metadata: EventMetadata;
  recorded_at: Date | string;
};

/** Wakes waiting subscribers; `version` lets a reader notice a wake-up that came while it was reading. */
class WakeSignal {
  version = 0;
  private readonly waiters = new Set<() => void>();

  notify(): void {
    this.version++;
    for (const wake of [...this.waiters]) wake();
  }

  /** Resolves on the next `notify`, after `timeoutMs`, or when `abort` fires, whichever is first. */
  wait(timeoutMs: number, abort: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (abort.aborted) return resolve();
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        abort.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
      abort.addEventListener('abort', done, { once: true });
    });
  }
}

/** A dedicated connection that LISTENs for appends of other processes and reconnects when it drops. */
class AppendListener {
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly onAppend: () => void,
  ) {}

  start(): void {
    if (this.client || this.retry || this.stopped) return;
    const client = new pg.Client({ connectionString: this.url });
    this.client = client;
    const lost = (): void => {
      if (this.client !== client) return;
      this.client = undefined;
      client.end().catch(() => {});
      // Polling carries subscribers meanwhile; a lost listener only costs latency.
      if (this.stopped) return;
      this.retry = setTimeout(() => {
        this.retry = undefined;
        this.start();
      }, 1_000);
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', () => this.onAppend());
    client
      .connect()
      .then(() => client.query(`LISTEN ${NOTIFY_CHANNEL}`))
      // Appends made while no listener was connected would otherwise wait for the next poll.
      .then(() => this.onAppend())
      .catch(lost);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}

class SqlStore implements SqlEventStore {
  readonly kind: 'postgres' | 'pglite';
  private readonly wake = new WakeSignal();
  private readonly subscriptions = new Set<SqlSubscription>();
  private readonly listener: AppendListener | undefined;
  private readonly pollIntervalMs: number;
  private readonly groups: GroupCommitter | undefined;
  private notifying: Promise<void> | undefined;
  private notifyAgain = false;
  private closed = false;

  constructor(
    private readonly db: Database,
    options: SqlEventStoreOptions,
  ) {
    this.kind = db.dialect;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    // PGlite is one process's private database: the in-process signal reaches every subscriber.
    this.listener =
      db.dialect === 'postgres' && options.listenUrl
        ? new AppendListener(options.listenUrl, () => this.wake.notify())
        : undefined;
    if (options.groupCommit ?? true) {
      this.groups = new GroupCommitter({
        // PGlite runs one statement at a time anyway: a second group in flight would only queue there.
        maxInFlight: db.dialect === 'pglite' ? 1 : (options.groupsInFlight ?? DEFAULT_GROUPS_IN_FLIGHT),
        maxEvents: MAX_EVENTS_PER_APPEND,
        write: (members) => appendGroup(db, members),
        writeAlone: (member) => this.appendAlone(member),
        onWritten: () => this.announceAppend(),
      });
    }
  }

  async append(streamId: string, events: readonly NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    this.assertOpen();
    assertAppendable(streamId, events, expectedRevision, MAX_EVENTS_PER_APPEND);
    const member: GroupMember = {
      streamId,
      expected: expectedRevision,
      count: events.length,
      events: JSON.stringify(
        events.map((e) => ({
          id: e.id ?? randomUUID(),
          type: e.type,
          version: e.version ?? 1,
          payload: e.payload ?? null,
          metadata: e.metadata,
        })),
      ),
    };
    let outcome: MemberOutcome;
    if (this.groups) {
      outcome = await this.groups.append(member);
    } else {
      outcome = await this.appendAlone(member);
      if ('written' in outcome) this.announceAppend();
    }
    if ('written' in outcome) return outcome.written;
    throw new WrongExpectedRevisionError(streamId, expectedRevision, await this.currentRevision(streamId));
  }

  /** Group commit's counters; absent when it is off. */
  get groupCommitStats(): GroupCommitStats | undefined {
    return this.groups?.stats;
  }

  /** One append in a statement of its own. */
  private async appendAlone(member: GroupMember): Promise<MemberOutcome> {
    const { streamId, expected, count, events } = member;
    let inserted: { position: string | bigint; revision: number }[];
    try {
      // One statement, hence one implicit transaction and one round trip: the streams row moves on (under
      // its row lock, so concurrent writers of a stream queue and each re-checks what the previous one
      // left), and the events are inserted only if it did.
      ({ rows: inserted } = await this.db.query<{ position: string | bigint; revision: number }>(
        `WITH stream AS (${STREAM_ADVANCE[expectedKind(expected)]})
         INSERT INTO es_events (index_in_append, event_id, stream_id, revision, type, version, payload, metadata)
         SELECT e.ordinality - 1, (e.value->>'id')::uuid, $1, stream.revision - $2 + e.ordinality::integer,
                e.value->>'type', (e.value->>'version')::integer, e.value->'payload', e.value->'metadata'
         FROM stream CROSS JOIN jsonb_array_elements($3::jsonb) WITH ORDINALITY AS e
         RETURNING position, revision`,
        [streamId, count, events, ...(typeof expected === 'number' ? [expected] : [])],
        // Parsed and planned once per connection: appends are the hottest statement of the platform.
        { prepare: `es_append_${expectedKind(expected)}` },
      ));
    } catch (err) {
      // The streams row serialises writers, so this is a second line of defence, not the usual path.
      if (isUniqueViolation(err)) return { conflict: true };
      throw err;
    }
    if (inserted.length === 0) return { conflict: true };
    const last = inserted.reduce((a, b) => (b.revision > a.revision ? b : a));
    return { written: { nextExpectedRevision: Number(last.revision), position: BigInt(last.position) } };
  }

  private async currentRevision(streamId: string): Promise<number | 'no_stream'> {
    const { rows } = await this.db.query<{ revision: number }>(`SELECT revision FROM es_streams WHERE stream_id = $1`, [
      streamId,
    ]);
    return rows[0] ? Number(rows[0].revision) : 'no_stream';
  }

  /** Wakes local subscribers, and (on a server) other processes' through one coalesced NOTIFY. */
  private announceAppend(): void {
    this.wake.notify();
    if (this.db.dialect !== 'postgres') return;
    if (this.notifying) {
      this.notifyAgain = true;
      return;
    }
    // NOTIFY outside the append's transaction: inside, it would serialise every commit on the
    // notification queue's lock. One NOTIFY in flight at a time, repeated once if appends came meanwhile.
    this.notifying = (async () => {
      do {
        this.notifyAgain = false;
        await this.db.query(`SELECT pg_notify('${NOTIFY_CHANNEL}', '')`).catch(() => {});
      } while (this.notifyAgain && !this.closed);
      this.notifying = undefined;
    })();
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const { rows } = await this.db.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM es_events
       WHERE stream_id = $1 AND revision >= $2 ORDER BY revision LIMIT $3`,
      [streamId, options.fromRevision ?? 0, options.maxCount ?? null],
      { prepare: 'es_read_stream' },
    );
    return rows.map(toRecordedEvent);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    return (await this.readPage(options.after ?? 0n, options.maxCount ?? null, options.filter)).events;
  }

  /**
   * One page after `after`, below the frontier. Also tells a subscriber where the frontier was (when the
   * page was not full, nothing below it is left to read) and whether matching events above it were
   * already committed, held back by an older transaction still running.
   */
  async readPage(
    after: bigint,
    maxCount: number | null,
    filter: EventFilter | undefined,
  ): Promise<{ events: RecordedEvent[]; frontier: bigint; heldBack: boolean }> {
    const params: unknown[] = [after.toString(), maxCount];
    const conditions: string[] = [];
    const types = filter?.eventTypes ?? [];
    if (types.length > 0) {
      conditions.push(`type IN (${types.map((t) => `$${params.push(t)}`).join(', ')})`);
    }
    const prefixes = filter?.streamPrefixes ?? [];
    if (prefixes.length > 0) {
      conditions.push(`(${prefixes.map((p) => `stream_id LIKE $${params.push(likePrefix(p))}`).join(' OR ')})`);
    }
    // The frontier is applied to the page, not inside the query: as a bound unknown when the query is
    // planned it would make the planner misjudge the position range. Rows at or above the frontier can
    // only form the tail of the ordered page, so cutting them off still leaves a prefix of the log.
    const { rows } = await this.db.query<EventRow & { frontier: string | bigint }>(
      `SELECT f.frontier, e.* FROM (SELECT ${FRONTIER_SQL} AS frontier) f
       LEFT JOIN LATERAL (
         SELECT ${EVENT_COLUMNS} FROM es_events
         WHERE position > $1::bigint ${conditions.map((c) => `AND ${c}`).join(' ')}
         ORDER BY position LIMIT $2
       ) e ON true
       ORDER BY e.position`,
      params,
    );
    const frontier = BigInt(rows[0]?.frontier ?? 0);
    const page = rows.filter((r) => r.position !== null).map(toRecordedEvent);
    const readable = page.filter((e) => e.position < frontier);
    return { events: readable, frontier, heldBack: readable.length < page.length };
  }

  async headPosition(): Promise<bigint> {
    this.assertOpen();
    const { rows } = await this.db.query<{ head: string | bigint }>(
      `SELECT coalesce(max(position), 0) AS head FROM es_events WHERE position < ${FRONTIER_SQL}`,
      [],
      { prepare: 'es_head' },
    );
    return BigInt(rows[0]?.head ?? 0);
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
    await this.notifying;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('The event store is closed');
  }
}

class SqlSubscription extends SingleUseSubscription {
  private readonly abort = new AbortController();
  private reading: Promise<unknown> | undefined;

  constructor(
    private readonly store: SqlStore,
    private readonly wake: WakeSignal,
    private readonly pollIntervalMs: number,
    private readonly options: SubscribeOptions,
    private readonly onClose: (s: SqlSubscription) => void,
  ) {
    super();
  }

  protected async *run(): AsyncGenerator<RecordedEvent> {
    const batchSize = this.options.batchSize ?? DEFAULT_BATCH_SIZE;
    let cursor = this.options.after ?? 0n;
    let retryDelay = MIN_RETRY_MS;
    try {
      while (!this.abort.signal.aborted) {
        const seen = this.wake.version;
        const reading = this.store.readPage(cursor, batchSize, this.options.filter);
        this.reading = reading;
        let page: Awaited<typeof reading>;
        try {
          page = await reading;
        } catch (err) {
          if (this.abort.signal.aborted) return;
          if (!isUnavailable(err)) throw err;
          // The database is away (restarting, failing over): read again from the same place, backing
          // off towards the poll interval, so no consumer has to subscribe again after an outage.
          await this.wake.wait(retryDelay, this.abort.signal);
          retryDelay = Math.min(retryDelay * 2, this.pollIntervalMs);
          continue;
        }
        // Events are handed out one at a time and the next page is fetched only when the consumer asks
        // for more: a slow consumer holds at most one page in memory.
        for (const event of page.events) {
          if (this.abort.signal.aborted) return;
          cursor = event.position;
          yield event;
        }
        if (page.events.length === batchSize) {
          retryDelay = MIN_RETRY_MS;
          continue;
        }
        // Not a full page: nothing else below the frontier matches, so later reads can start there.
        if (page.frontier - 1n > cursor) cursor = page.frontier - 1n;
        if (page.heldBack) {
          // Committed events wait for an older transaction, which may be no append and so never signal:
          // look again soon, backing off towards the poll interval.
          await this.wake.wait(retryDelay, this.abort.signal);
          retryDelay = Math.min(retryDelay * 2, this.pollIntervalMs);
          continue;
        }
        retryDelay = MIN_RETRY_MS;
        if (this.wake.version === seen) await this.wake.wait(this.pollIntervalMs, this.abort.signal);
      }
    } finally {
      this.abort.abort();
      this.onClose(this);
    }
  }

  async close(): Promise<void> {
    this.abort.abort();
    this.onClose(this);
    // Lets a read in flight finish, so the owner can close the database right after.
    await this.reading?.catch(() => {});
  }
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    revision: Number(row.revision),
    position: BigInt(row.position),
    type: row.type,
    version: Number(row.version),
    payload: row.payload,
    metadata: row.metadata,
    recordedAt: row.recorded_at instanceof Date ? row.recorded_at : new Date(row.recorded_at),
  };
}

/** A LIKE pattern matching names that start with `prefix` literally. */
function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}
