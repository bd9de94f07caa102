import { context, ROOT_CONTEXT, type Attributes, type Context, type Span } from '@opentelemetry/api';
import { failSpan, tickRoot, tracingActive } from './spans.js';

/**
 * One tick of a timer (a sweep, a poll, a periodic job) as the tracing sees it. The tick's span starts
 * only when the tick finds work: at the first `work` call, or the first `count` of something done. A
 * tick that finds nothing makes no span, so a poller that wakes every 50 ms sends nothing while idle.
 */
export interface Tick {
  /**
   * Runs `fn`, part of the tick's work, in the tick's span (the root of a trace of its own, started at
   * the first call, as of the tick's start): what it does (event-store appends, bus requests, webhook
   * deliveries, log lines) is in that trace.
   */
  work<T>(fn: () => Promise<T>): Promise<T>;
  /** Adds `n` to the span's attribute `attribute` (rows removed, items handled); a first `n` above 0 starts the span. */
  count(attribute: string, n?: number): void;
}

/** The tick when tracing is off, or of work no timer runs (a pass asked for): nothing recorded, nothing allocated. */
export const UNTRACED: Tick = Object.freeze({
  work: <T>(fn: () => Promise<T>): Promise<T> => fn(),
  count: () => undefined,
});

class TracedTick implements Tick {
  private readonly startedAt = Date.now();
  private root: { context: Context; span?: Span } | null = null;
  private counts: Map<string, number> | null = null;

  constructor(
    private readonly name: string,
    private readonly attributes: Attributes,
  ) {}

  private begin(): { context: Context; span?: Span } {
    return (this.root ??= tickRoot(this.name, this.attributes, this.startedAt));
  }

  work<T>(fn: () => Promise<T>): Promise<T> {
    return context.with(this.begin().context, fn);
  }

  count(attribute: string, n = 1): void {
    if (n === 0) return;
    this.counts ??= new Map();
    const total = (this.counts.get(attribute) ?? 0) + n;
    this.counts.set(attribute, total);
    this.begin().span?.setAttribute(attribute, total);
  }

  end(error: unknown): void {
    const span = this.root?.span;
    if (!span) return;
    if (error !== undefined) failSpan(span, error);
    span.end();
  }
}

/**
 * Runs one tick of a timer's job, outside any trace (whatever set the timer), as `name` (`idempotency.sweep`,
 * `df.periodic idle-sessions`): `run` looks for work first, outside any span, and does what it found
 * through `tick.work` / `tick.count`, which start the tick's span (see `Tick`). The span ends when `run`
 * settles, failed when it throws. Decided by the sampler's root draw, as a request of its own would be;
 * not sampled, the work runs with no span. Off, `run` gets a tick that only runs the work.
 */
export async function inTick<T>(name: string, run: (tick: Tick) => Promise<T>, attributes: Attributes = {}): Promise<T> {
  if (!tracingActive()) return run(UNTRACED);
  const tick = new TracedTick(name, attributes);
  let failure: unknown;
  try {
    return await context.with(ROOT_CONTEXT, () => run(tick));
  } catch (err) {
    failure = err;
    throw err;
  } finally {
    tick.end(failure);
  }
}
