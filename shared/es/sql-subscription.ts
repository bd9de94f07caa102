import { isUnavailable } from '#shared/errors.js';
import { DEFAULT_BATCH_SIZE, SingleUseSubscription } from './types.js';
import type { EventFilter, RecordedEvent, SubscribeOptions } from './types.js';
import type { LogPage } from './sql-reads.js';
import type { WakeSignal, WakeWatch } from './sql-wake.js';

const MIN_RETRY_MS = 5;

/** Where a subscription reads its pages. */
export interface PageReader {
  readPage(after: bigint, maxCount: number | null, filter: EventFilter | undefined): Promise<LogPage>;
}

/**
 * A catch-up subscription of the SQL store: pages after its cursor, below the frontier; between pages it
 * waits for a wake-up or its poll interval, and it looks again soon when committed events are held back.
 */
export class SqlSubscription extends SingleUseSubscription {
  private readonly abort = new AbortController();
  private reading: Promise<unknown> | undefined;
  private readonly wake: WakeWatch;

  constructor(
    private readonly store: PageReader,
    signal: WakeSignal,
    private readonly pollIntervalMs: number,
    private readonly options: SubscribeOptions,
    private readonly onClose: (s: SqlSubscription) => void,
  ) {
    super();
    this.wake = signal.watch(options.filter);
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
      this.wake.close();
      this.onClose(this);
    }
  }

  async close(): Promise<void> {
    this.abort.abort();
    this.wake.close();
    this.onClose(this);
    // Lets a read in flight finish, so the owner can close the database right after.
    await this.reading?.catch(() => {});
  }
}
