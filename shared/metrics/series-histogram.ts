import type { Registry } from 'prom-client';

/** One label set's counts: `observe` is a bucket search and three additions, with no label work. */
export interface HistogramSeries {
  observe(value: number): void;
}

interface SeriesData {
  labels: Record<string, string>;
  /** Observations per bucket (not cumulative); the last slot is above every bound (+Inf). */
  counts: number[];
  sum: number;
  count: number;
}

/**
 * A Prometheus histogram whose series a hot path looks up once and keeps: prom-client's `observe` checks
 * and hashes the label set on every call (a child from `labels()` too), which a profile of the gateway
 * under load showed as nearly all of the request hook's time. The exposition is prom-client's own
 * histogram's (`_bucket` cumulative with `le`, then `_sum` and `_count`, per series), through the same
 * registry. Only for label values from fixed vocabularies: every series is kept for the process's life.
 */
export class SeriesHistogram<L extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly data = new Map<string, SeriesData>();
  private readonly handles = new Map<string, HistogramSeries>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly L[],
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }

  /** The series of `labels` (an absent or undefined label is left out, as prom-client does). */
  series(labels: Partial<Record<L, string | undefined>>): HistogramSeries {
    const key = this.labelNames.map((n) => labels[n] ?? '\u0000').join('\u0001');
    let handle = this.handles.get(key);
    if (handle) return handle;
    const kept: Record<string, string> = {};
    for (const n of this.labelNames) if (labels[n] !== undefined) kept[n] = labels[n]!;
    const series: SeriesData = { labels: kept, counts: new Array<number>(this.bounds.length + 1).fill(0), sum: 0, count: 0 };
    this.data.set(key, series);
    const bounds = this.bounds;
    handle = {
      observe(value: number) {
        let i = 0;
        while (i < bounds.length && value > bounds[i]!) i++;
        series.counts[i]! += 1;
        series.sum += value;
        series.count += 1;
      },
    };
    this.handles.set(key, handle);
    return handle;
  }

  /** What the registry renders at a scrape. */
  async get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const s of this.data.values()) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += s.counts[i]!;
        values.push({ labels: { le, ...s.labels }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: `${this.name}_bucket` });
      values.push({ labels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** Zeroes every series; handles already given out keep counting into the new zeroes. */
  reset(): void {
    for (const s of this.data.values()) {
      s.counts.fill(0);
      s.sum = 0;
      s.count = 0;
    }
  }
}
