import { Pauses } from '#shared/concurrency.js';
import { applySchema } from '#shared/db/index.js';
import type { RecordedEvent, Subscription } from '#shared/es/index.js';
import { inTraceOf } from '#shared/tracing/index.js';
import type { Platform } from '../../platform.js';

/**
 * One kind of mail sent for events of the log (a quarantine, a maintenance in a booking): what it follows,
 * where it keeps its position and its claims, and how it sends. The tables are its own: a position table
 * `(name text PRIMARY KEY, position text)` and a claim table `(event_id text PRIMARY KEY, <subject> text,
 * recipients integer, sent_at timestamptz)`, both created under the schema name `schemaName`.
 */
export interface EventMail {
  /** Its name in the logs ("the quarantine mail"). */
  what: string;
  schemaName: string;
  tables: { position: string; positionName: string; claims: string; subjectColumn: string };
  eventTypes: string[];
  /** What the event is mailed about (its claim's subject), or null: it is not mailed. */
  subjectOf(event: RecordedEvent): string | null;
  /** Sends the event's mail; how many were mailed. */
  send(event: RecordedEvent): Promise<number>;
}

/** The DDL of a mail's position and claim tables. */
function mailTables(t: EventMail['tables']): string {
  return `
  CREATE TABLE IF NOT EXISTS ${t.position} (name text PRIMARY KEY, position text NOT NULL);
  CREATE TABLE IF NOT EXISTS ${t.claims} (
    event_id text PRIMARY KEY,
    ${t.subjectColumn} text NOT NULL,
    recipients integer NOT NULL DEFAULT 0,
    sent_at timestamptz NOT NULL
  );`;
}

/**
 * Follows the event log from its own stored position (a first start follows from the log's head) and
 * mails each event its `EventMail` says is mailed. Each is claimed by its event's id before it is sent,
 * so a replay, a restart or a second replica never mails it twice. A mail that cannot be sent (the SMTP
 * server away) frees its claim and is tried again with a growing pause (0.2 s doubling to 30 s), the
 * position held until it is sent; a process that dies between the claim and the send loses that one mail
 * (at most once). Each send is a span (`mail <name>`) in the trace of the event's request.
 */
export class EventMailer {
  private subscription: Subscription | null = null;
  private following: Promise<void> | null = null;
  private stopped = false;
  private readonly pauses = new Pauses();

  constructor(
    private readonly platform: Platform,
    private readonly mail: EventMail,
  ) {}

  async start(): Promise<void> {
    const { db, store } = this.platform;
    const { position, positionName } = this.mail.tables;
    await applySchema(db, this.mail.schemaName, mailTables(this.mail.tables));
    await db.query(`INSERT INTO ${position} (name, position) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [positionName, (await store.headPosition()).toString()]);
    const r = await db.query<{ position: string }>(`SELECT position FROM ${position} WHERE name = $1`, [positionName]);
    this.stopped = false;
    this.following = this.follow(BigInt(r.rows[0]?.position ?? '0'));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.pauses.wakeAll();
    await this.subscription?.close();
    await this.following;
  }

  private async follow(after: bigint): Promise<void> {
    this.subscription = this.platform.store.subscribe({ after, filter: { eventTypes: this.mail.eventTypes } });
    try {
      for await (const event of this.subscription) {
        for (let delay = 200; !this.stopped; delay = Math.min(delay * 2, 30_000)) {
          try {
            await this.take(event);
            break;
          } catch (err) {
            this.platform.logger.warn({ err, eventId: event.id }, `${this.mail.what} failed; trying again`);
            await this.pauses.pause(delay);
          }
        }
        if (this.stopped) return;
      }
    } catch (err) {
      if (!this.stopped) this.platform.logger.error({ err }, `${this.mail.what} stopped following the event log; a restart follows on from its stored position`);
    }
  }

  /** Mails one event once (claimed by its id), then moves the position past it. */
  private async take(event: RecordedEvent): Promise<void> {
    const { db } = this.platform;
    const { position, positionName, claims, subjectColumn } = this.mail.tables;
    const subject = this.mail.subjectOf(event);
    if (subject !== null) {
      const claimed = await db.query(`INSERT INTO ${claims} (event_id, ${subjectColumn}, sent_at) VALUES ($1, $2, $3) ON CONFLICT (event_id) DO NOTHING RETURNING event_id`, [event.id, subject, this.platform.now().toISOString()]);
      if (claimed.rows.length > 0) {
        try {
          // In the trace of the request that caused the event (a root span of its own when it recorded none),
          // so that the mail, its look-ups and its log lines are found from that request.
          const sent = await inTraceOf(event.metadata.traceparent, `mail ${this.mail.tables.positionName}`, { 'event.type': event.type, 'event.id': event.id }, () => this.mail.send(event));
          await db.query(`UPDATE ${claims} SET recipients = $2 WHERE event_id = $1`, [event.id, sent]);
        } catch (err) {
          await db.query(`DELETE FROM ${claims} WHERE event_id = $1`, [event.id]);
          throw err;
        }
      }
    }
    await db.query(`UPDATE ${position} SET position = $1 WHERE name = $2 AND position::numeric < $1::numeric`, [event.position.toString(), positionName]);
  }
}
