import type { Sql } from '#shared/db/index.js';
import type { AppendResult, ExpectedRevision } from './types.js';
import { qaMetrics } from '../metrics/index.js';
import { CHAIN_OF_SQL, ENCODED_SQL } from './sql-chain.js';

/*
 * Group commit.
 *
 * Appends that arrive while earlier ones are still on their way to the database are gathered and written
 * by one statement, hence one transaction and one commit (one WAL flush) for the whole group. The
 * statement checks each stream's revision on its own: an append whose expectation does not hold moves
 * no stream and inserts no event, while the others of the group are written; it is then answered with
 * `WrongExpectedRevisionError` like an append made alone. A caller's promise resolves only once the
 * statement has returned, i.e. after its COMMIT, so an acknowledgement still means durable.
 *
 * Why one statement rather than a transaction with a savepoint per append: node-postgres does not
 * pipeline, so savepoints would cost three round trips per append (SAVEPOINT, the append, RELEASE)
 * on one connection, and the group would hold its stream locks all that time. The one statement costs
 * one round trip for the group, and the only per-append failure it has to tell apart is a revision
 * mismatch, which it reports as "no rows for that stream" rather than as an error.
 *
 * Rules that keep it correct:
 * - A stream appears at most once in a group, and not in two groups in flight at once: the statement
 *   cannot see its own changes, and the second append of a stream must be checked against the first.
 *   A later append of a busy stream waits for a later group, so one stream's appends keep their order.
 * - The events of a group share one transaction id, so their positions share the high bits; each
 *   append's events get their own range of the 16 low bits ("index in append" becomes "index in the
 *   group"), so a group holds at most MAX_EVENTS_PER_APPEND events.
 * - If the statement fails with an error from the server (an event the database refuses, a deadlock
 *   with another process's group), nothing of the group was committed, and each append is retried
 *   alone: one bad append fails alone. An error without a server code (the connection dropped) may
 *   have come after the commit, so it is handed to every caller of the group, as a lone append would.
 */

/** One append as the group statement takes it: the stream, what the writer expects, and the events. */
export interface GroupMember {
  streamId: string;
  expected: ExpectedRevision;
  /** The events, already serialised as a JSON array (the same text the single-append statement takes). */
  events: string;
  count: number;
  /** The events' types (what a subscriber's filter is asked about). */
  types: readonly string[];
}

/** The outcome of one member: written, or refused because its expected revision did not hold. */
export type MemberOutcome = { written: AppendResult } | { conflict: true };

/** Counters a test or an operator can read to see groups being formed. */
export interface GroupCommitStats {
  /** Group statements run (each one transaction). */
  groups: number;
  /** Appends written through groups, successful or refused. */
  appends: number;
  /** The most appends one group has held. */
  largestGroup: number;
  /** Groups whose statement failed and whose appends were retried one by one. */
  retriedAlone: number;
}

/** The expected revision's kind, as the statement's input spells it. */
function kindOf(expected: ExpectedRevision): 'no_stream' | 'stream_exists' | 'any' | 'exact' {
  return typeof expected === 'number' ? 'exact' : expected;
}

/*
 * $1 is a JSON array of {s: stream, k: kind, x: expected revision or null, n: event count, o: index of
 * the append's first event within the group, e: events}. Each kind moves its streams in its own
 * data-modifying CTE; a stream is in one CTE at most, so they never touch the same row. Rows are locked
 * in stream order, which keeps two groups of different processes from locking each other crosswise in
 * the common case (the retry alone covers the rest). The statement chains its own events (sql-chain.ts):
 * it locks the head rows of their chains in chain order, numbers and hashes each chain's events in the
 * group's order with a window (`es_chain_fold`), inserts them with their number and hash, and moves the
 * heads; an event whose chain has no head row yet is inserted without a hash, and the row trigger chains
 * it (creating the row). The events are inserted ordered by their chain, so two groups also take those
 * rows in the same order; a deadlock between two groups (possible only while a chain is being created)
 * fails the group, and its appends go alone.
 */
const GROUP_INPUT_SQL = `
  WITH input AS (
    SELECT a->>'s' AS stream_id, a->>'k' AS kind, (a->>'x')::integer AS expected,
           (a->>'n')::integer AS n, (a->>'o')::integer AS o, a->'e' AS events
    FROM jsonb_array_elements($1::jsonb) AS a
  ),
  created AS (
    INSERT INTO es_streams (stream_id, revision)
    SELECT stream_id, n - 1 FROM input WHERE kind = 'no_stream' ORDER BY stream_id
    ON CONFLICT (stream_id) DO NOTHING RETURNING stream_id, revision
  ),
  upserted AS (
    INSERT INTO es_streams (stream_id, revision)
    SELECT stream_id, n - 1 FROM input WHERE kind = 'any' ORDER BY stream_id
    ON CONFLICT (stream_id) DO UPDATE SET revision = es_streams.revision + excluded.revision + 1
    RETURNING stream_id, revision
  ),
  moved AS (
    UPDATE es_streams s SET revision = s.revision + i.n FROM input i
    WHERE s.stream_id = i.stream_id
      AND (i.kind = 'stream_exists' OR (i.kind = 'exact' AND s.revision = i.expected))
    RETURNING s.stream_id, s.revision
  ),
  advanced AS (
    SELECT stream_id, revision FROM created
    UNION ALL SELECT stream_id, revision FROM upserted
    UNION ALL SELECT stream_id, revision FROM moved
  ),
  r AS (
    SELECT i.o + e.ordinality - 1 AS index_in_append, (e.value->>'id')::uuid AS event_id, i.stream_id,
           a.revision - i.n + e.ordinality::integer AS revision, e.value->>'type' AS type,
           (e.value->>'version')::integer AS version, e.value->'payload' AS payload, e.value->'metadata' AS metadata,
           ${CHAIN_OF_SQL("e.value->'metadata'")} AS chain, i.o, e.ordinality
    FROM advanced a JOIN input i ON i.stream_id = a.stream_id
    CROSS JOIN jsonb_array_elements(i.events) WITH ORDINALITY AS e
  )`;

const GROUP_APPEND_SQL = `${GROUP_INPUT_SQL},
  heads AS (
    SELECT h.chain, h.seq, h.head FROM es_chains h WHERE h.chain IN (SELECT chain FROM r) ORDER BY h.chain FOR UPDATE
  ),
  chained AS (
    SELECT r.*, h.seq + row_number() OVER w AS chain_seq,
           es_chain_fold(h.head, ${ENCODED_SQL('r', '(pg_current_xact_id()::text::bigint << 16) | r.index_in_append')}) OVER w AS chain_hash
    FROM r LEFT JOIN heads h ON h.chain = r.chain
    WINDOW w AS (PARTITION BY r.chain ORDER BY r.o, r.ordinality ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
  ),
  inserted AS (
    INSERT INTO es_events (index_in_append, event_id, stream_id, revision, type, version, payload, metadata, chain, chain_seq, chain_hash)
    SELECT index_in_append, event_id, stream_id, revision, type, version, payload, metadata, chain, chain_seq, chain_hash
    FROM chained ORDER BY chain, o, ordinality
    RETURNING stream_id, position, revision, chain, chain_seq, chain_hash
  ),
  -- Only the heads this statement locked and chained from: a new chain's head is the row trigger's,
  -- which its statement-level trigger writes back (RETURNING shows those events' hashes too).
  heads_moved AS (
    UPDATE es_chains h SET seq = l.chain_seq, head = l.chain_hash
    FROM (SELECT DISTINCT ON (chain) chain, chain_seq, chain_hash FROM inserted WHERE chain IN (SELECT chain FROM heads) ORDER BY chain, chain_seq DESC) l
    WHERE h.chain = l.chain
  )
  SELECT stream_id, position, revision FROM inserted`;

/** The same without the chain: only what the chain costs is measured against it (`SqlEventStoreOptions.unchained`). */
const GROUP_APPEND_UNCHAINED_SQL = `${GROUP_INPUT_SQL},
  inserted AS (
    INSERT INTO es_events (index_in_append, event_id, stream_id, revision, type, version, payload, metadata)
    SELECT index_in_append, event_id, stream_id, revision, type, version, payload, metadata FROM r ORDER BY chain, o, ordinality
    RETURNING stream_id, position, revision
  )
  SELECT stream_id, position, revision FROM inserted`;

/**
 * Writes `members` (distinct streams, at most MAX_EVENTS_PER_APPEND events in all) in one statement and
 * tells each one's outcome, in the members' order.
 */
export async function appendGroup(sql: Sql, members: readonly GroupMember[], chained = true): Promise<MemberOutcome[]> {
  let offset = 0;
  const input = members.map((m) => {
    const o = offset;
    offset += m.count;
    const x = typeof m.expected === 'number' ? m.expected : null;
    return `{"s":${JSON.stringify(m.streamId)},"k":"${kindOf(m.expected)}","x":${x},"n":${m.count},"o":${o},"e":${m.events}}`;
  });
  const { rows } = await sql.query<{ stream_id: string; position: string | bigint; revision: number }>(
    chained ? GROUP_APPEND_SQL : GROUP_APPEND_UNCHAINED_SQL,
    [`[${input.join(',')}]`],
    { prepare: chained ? 'es_append_group' : 'es_append_group_unchained' },
  );
  const last = new Map<string, { position: bigint; revision: number }>();
  for (const row of rows) {
    const seen = last.get(row.stream_id);
    const revision = Number(row.revision);
    if (!seen || revision > seen.revision) last.set(row.stream_id, { position: BigInt(row.position), revision });
  }
  return members.map((m) => {
    const written = last.get(m.streamId);
    return written ? { written: { nextExpectedRevision: written.revision, position: written.position } } : { conflict: true };
  });
}

interface Pending {
  member: GroupMember;
  resolve(outcome: MemberOutcome): void;
  reject(err: unknown): void;
}

export interface GroupCommitterOptions {
  /** Groups on their way to the database at once (each on its own connection). */
  maxInFlight: number;
  /** Events one group may hold in all. */
  maxEvents: number;
  /** Writes one group; the committer never calls it with a stream twice or with a stream in flight. */
  write(members: readonly GroupMember[]): Promise<MemberOutcome[]>;
  /** Writes one append alone, when its group failed as a whole. */
  writeAlone(member: GroupMember): Promise<MemberOutcome>;
  /** Called once per group that wrote anything, with the members it wrote. */
  onWritten(written: readonly GroupMember[]): void;
}

/**
 * Gathers appends into groups. A group leaves as soon as a slot is free: under light load each append
 * goes alone at once (no added wait), and groups grow only while earlier ones are in flight.
 */
export class GroupCommitter {
  readonly stats: GroupCommitStats = { groups: 0, appends: 0, largestGroup: 0, retriedAlone: 0 };
  private queue: Pending[] = [];
  private readonly busyStreams = new Set<string>();
  private inFlight = 0;
  private scheduled = false;

  constructor(private readonly options: GroupCommitterOptions) {}

  append(member: GroupMember): Promise<MemberOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ member, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves once every append handed in so far has been answered. */
  async drain(): Promise<void> {
    while (this.queue.length > 0 || this.inFlight > 0) {
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  // Appends made in the same turn of the event loop join one group: the group leaves on the next turn.
  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.options.maxInFlight) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.options.maxInFlight) {
      const group = this.takeGroup();
      if (group.length === 0) return;
      this.inFlight++;
      void this.write(group).finally(() => {
        for (const p of group) this.busyStreams.delete(p.member.streamId);
        this.inFlight--;
        if (this.queue.length > 0) this.schedule();
      });
    }
  }

  /** The oldest appends whose streams are free, in order, within the event budget. */
  private takeGroup(): Pending[] {
    const group: Pending[] = [];
    const rest: Pending[] = [];
    const taken = new Set<string>();
    // A stream with an append left waiting keeps its later appends waiting too, so they stay in order.
    const waiting = new Set<string>();
    let events = 0;
    for (const p of this.queue) {
      const { streamId, count } = p.member;
      const free = !this.busyStreams.has(streamId) && !taken.has(streamId) && !waiting.has(streamId);
      if (free && (group.length === 0 || events + count <= this.options.maxEvents)) {
        group.push(p);
        taken.add(streamId);
        events += count;
      } else {
        rest.push(p);
        waiting.add(streamId);
      }
    }
    for (const streamId of taken) this.busyStreams.add(streamId);
    this.queue = rest;
    return group;
  }

  private async write(group: Pending[]): Promise<void> {
    let outcomes: MemberOutcome[];
    try {
      outcomes = await this.options.write(group.map((p) => p.member));
    } catch (err) {
      if (!hasServerCode(err)) {
        for (const p of group) p.reject(err);
        return;
      }
      // Nothing of the group was committed: each append tries again alone and fails, if it does, alone.
      this.stats.retriedAlone++;
      const written: GroupMember[] = [];
      await Promise.all(
        group.map((p) =>
          this.options.writeAlone(p.member).then(
            (outcome) => {
              if ('written' in outcome) written.push(p.member);
              p.resolve(outcome);
            },
            (e: unknown) => p.reject(e),
          ),
        ),
      );
      if (written.length > 0) this.options.onWritten(written);
      return;
    }
    this.stats.groups++;
    this.stats.appends += group.length;
    this.stats.largestGroup = Math.max(this.stats.largestGroup, group.length);
    qaMetrics.eventStoreGroupSize.observe(group.length);
    const written = group.filter((_, i) => 'written' in (outcomes[i] as MemberOutcome)).map((p) => p.member);
    if (written.length > 0) this.options.onWritten(written);
    group.forEach((p, i) => p.resolve(outcomes[i] as MemberOutcome));
  }
}

/** A SQLSTATE from the server: the statement failed there, so its transaction did not commit. */
function hasServerCode(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}
