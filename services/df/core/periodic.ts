import { inTick, setIntervalOutsideTrace, type Tick } from '#shared/tracing/index.js';

/**
 * A job the device module runs every so often (the idle-session sweep, the limits sweep, the host
 * reaper, the booking ticker, the expired-upload sweep): one run at a time, so a tick that comes while
 * a run is under way is skipped; a run that fails is reported to `failed` and the next tick tries
 * again. The timer keeps no process alive, and its runs belong to no trace: a run that finds work does
 * it through its `tick` (`tick.work`, `tick.count`), which makes the run the root span
 * `df.periodic <name>` of a trace of its own; a run that finds nothing makes no span.
 */
export class PeriodicJob {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly spanName: string;

  constructor(
    name: string,
    private readonly run: (tick: Tick) => Promise<void>,
    private readonly failed: (err: unknown) => void,
  ) {
    this.spanName = `df.periodic ${name}`;
  }

  start(everyMs: number): void {
    // Outside any trace: a job started while a request was traced would otherwise tick inside it for ever.
    this.timer = setIntervalOutsideTrace(() => {
      this.running ??= inTick(this.spanName, this.run)
        .catch(this.failed)
        .finally(() => (this.running = null));
    }, everyMs);
    this.timer.unref();
  }

  /** No tick after this call; resolves once the run under way, if any, has ended. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
