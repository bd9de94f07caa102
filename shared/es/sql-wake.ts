import pg from 'pg';
import type { Sql } from '#shared/db/index.js';
import type { EventFilter } from './types.js';

const NOTIFY_CHANNEL = 'es_events_appended';

/** What an append of this process wrote: its streams and its events' types. */
export interface Appended {
  streams: readonly string[];
  types: readonly string[];
}

/** Whether `appended` may hold an event `filter` matches (conservative: any stream, any type). */
function mayMatch(filter: EventFilter | undefined, appended: Appended): boolean {
  const { eventTypes, streamPrefixes } = filter ?? {};
  if (eventTypes && !appended.types.some((t) => eventTypes.includes(t))) return false;
  if (streamPrefixes && !appended.streams.some((s) => streamPrefixes.some((p) => s.startsWith(p)))) return false;
  return true;
}

/**
 * One subscriber's doorbell: rung by every wake-up that may concern its filter; `version` lets it notice a
 * ring that came while it was reading.
 */
export class WakeWatch {
  version = 0;
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly filter: EventFilter | undefined,
    private readonly release: (watch: WakeWatch) => void,
  ) {}

  ring(): void {
    this.version++;
    for (const wake of [...this.waiters]) wake();
  }

  /** Resolves on the next ring, after `timeoutMs`, or when `abort` fires, whichever is first. */
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

  close(): void {
    this.release(this);
  }
}

/**
 * Wakes waiting subscribers. An append of this process says what it wrote, and rings only the
 * subscribers whose filter it may concern (a subscriber of webhook sources reads nothing for a test
 * case's append); a wake-up from elsewhere (another process's NOTIFY) says nothing and rings them all.
 */
export class WakeSignal {
  private readonly watches = new Set<WakeWatch>();

  watch(filter: EventFilter | undefined): WakeWatch {
    const watch = new WakeWatch(filter, (w) => this.watches.delete(w));
    this.watches.add(watch);
    return watch;
  }

  notify(appended?: Appended): void {
    for (const watch of this.watches) if (!appended || mayMatch(watch.filter, appended)) watch.ring();
  }
}

/**
 * A dedicated connection that LISTENs for appends of other processes and reconnects when it drops. A
 * notification whose payload is `ownSender` is this store's own (its subscribers were woken when it
 * appended): hearing it back wakes nobody, which spares every subscriber a second, empty read per append.
 */
export class AppendListener {
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly onAppend: () => void,
    private readonly ownSender = '',
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
    client.on('notification', (msg) => {
      if (this.ownSender === '' || msg.payload !== this.ownSender) this.onAppend();
    });
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

/**
 * Tells other processes of appends through one coalesced NOTIFY (server only): outside the append's
 * transaction, since inside it would serialise every commit on the notification queue's lock. One NOTIFY
 * in flight at a time, repeated once if appends came meanwhile.
 */
export class AppendNotifier {
  private notifying: Promise<void> | undefined;
  private notifyAgain = false;
  private closed = false;

  /** `sender`: the payload, which the sending store's own listener recognises. */
  constructor(
    private readonly db: Sql,
    private readonly sender = '',
  ) {
    if (!/^[\w-]*$/.test(sender)) throw new Error('A notification sender is letters, digits, _ and -');
  }

  notify(): void {
    if (this.notifying) {
      this.notifyAgain = true;
      return;
    }
    this.notifying = (async () => {
      do {
        this.notifyAgain = false;
        await this.db.query(`SELECT pg_notify('${NOTIFY_CHANNEL}', '${this.sender}')`).catch(() => {});
      } while (this.notifyAgain && !this.closed);
      this.notifying = undefined;
    })();
  }

  /** Sends no repeat after this call; resolves once the NOTIFY in flight, if any, has been sent. */
  async close(): Promise<void> {
    this.closed = true;
    await this.notifying;
  }
}
