import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { SeriesHistogram } from './series-histogram.js';

/**
 * The process's one registry: every metric of every part running in this process (the HTTP server, the
 * modules, the projections runner, an in-process agent) is in it, and `/metrics` answers all of it.
 * Node's own figures (event-loop delay, heap, GC, CPU, handles) join it under prom-client's standard
 * names (`nodejs_*`, `process_*`) once metrics are served (http.ts).
 */
export const registry = new Registry();

/** The label names of a metric: a fixed list, so its label set is bounded by the values each takes. */
type Labels<L extends string> = readonly L[];

const existing = <M>(name: string, kind: string): M | undefined => {
  const found = registry.getSingleMetric(name) as (M & { constructor: { name: string } }) | undefined;
  if (found && found.constructor.name !== kind) throw new Error(`Metric ${name} is already registered as a ${found.constructor.name}`);
  return found;
};

/**
 * A histogram of this process, created once: a second call with the same name (a second server started
 * in one test process) gets the first.
 */
export function histogram<L extends string>(name: string, help: string, labelNames: Labels<L>, buckets: number[]): Histogram<L> {
  return existing<Histogram<L>>(name, 'Histogram') ?? new Histogram<L>({ name, help, labelNames: [...labelNames], buckets, registers: [registry] });
}

/** A histogram of this process whose series a hot path looks up once and keeps (series-histogram.ts), created once. */
export function seriesHistogram<L extends string>(name: string, help: string, labelNames: Labels<L>, buckets: number[]): SeriesHistogram<L> {
  return existing<SeriesHistogram<L>>(name, 'SeriesHistogram') ?? new SeriesHistogram<L>(name, help, labelNames, buckets, registry);
}

/** A counter of this process (names end in `_total`), created once. */
export function counter<L extends string>(name: string, help: string, labelNames: Labels<L>): Counter<L> {
  return existing<Counter<L>>(name, 'Counter') ?? new Counter<L>({ name, help, labelNames: [...labelNames], registers: [registry] });
}

/** A gauge of this process, created once. */
export function gauge<L extends string>(name: string, help: string, labelNames: Labels<L>): Gauge<L> {
  return existing<Gauge<L>>(name, 'Gauge') ?? new Gauge<L>({ name, help, labelNames: [...labelNames], registers: [registry] });
}

/** What a gauge read at scrape time reports: one value per label set. */
export type Readings<L extends string> = { labels: Partial<Record<L, string>>; value: number }[];

const gaugeSources = new Map<string, (() => Promise<Readings<string>>)[]>();

/**
 * A gauge read when scraped, from the source most recently given (a process usually has one; a test
 * process that starts several servers reads the newest). `use` returns the function that takes the
 * source back. A source that fails leaves the gauge empty for that scrape.
 */
export function observedGauge<L extends string>(name: string, help: string, labelNames: Labels<L>) {
  const sources = (gaugeSources.get(name) ?? gaugeSources.set(name, []).get(name)!) as (() => Promise<Readings<L>>)[];
  let found = existing<Gauge<L>>(name, 'Gauge');
  if (!found) {
    found = new Gauge<L>({
      name,
      help,
      labelNames: [...labelNames],
      registers: [registry],
      async collect() {
        this.reset();
        const source = sources.at(-1);
        if (!source) return;
        const readings = await source().catch(() => []);
        for (const r of readings) this.set(r.labels as never, r.value);
      },
    });
  }
  return {
    gauge: found,
    use(source: () => Promise<Readings<L>>): () => void {
      sources.push(source);
      return () => {
        const at = sources.lastIndexOf(source);
        if (at >= 0) sources.splice(at, 1);
      };
    },
  };
}

/** The text `/metrics` answers, and its content type. */
export async function exposition(): Promise<{ body: string; contentType: string }> {
  return { body: await registry.metrics(), contentType: registry.contentType };
}
