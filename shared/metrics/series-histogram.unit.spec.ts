import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { SeriesHistogram } from './series-histogram.js';

const BOUNDS = [0.005, 0.01, 0.1, 1];
const OBSERVED: [Record<string, string>, number][] = [
  [{ method: 'GET', route: '/a', status: '200' }, 0.004],
  [{ method: 'GET', route: '/a', status: '200' }, 0.01],
  [{ method: 'GET', route: '/a', status: '200' }, 0.5],
  [{ method: 'POST', route: '/b', status: '201' }, 2],
  [{ method: 'GET', status: '404' }, 0.02],
];

/** The exposition of one registry, each metric's lines sorted (the order of series within a metric is not part of the format). */
async function lines(registry: Registry): Promise<string[]> {
  return (await registry.metrics()).split('\n').filter(Boolean).sort();
}

describe('a histogram whose series are looked up once', () => {
  it('renders exactly what prom-client’s histogram renders for the same observations', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const mine = new SeriesHistogram('req_seconds', 'Requests.', ['method', 'route', 'status'], BOUNDS, ours);
    const reference = new Histogram({ name: 'req_seconds', help: 'Requests.', labelNames: ['method', 'route', 'status'], buckets: BOUNDS, registers: [theirs] });
    for (const [labels, value] of OBSERVED) {
      mine.series(labels).observe(value);
      reference.observe(labels, value);
    }
    expect(await lines(ours)).toEqual(await lines(theirs));
    expect(await lines(ours)).toContain('req_seconds_bucket{le="0.1",method="GET",route="/a",status="200"} 2');
  });

  it('hands out one series per label set, and an absent label is not an empty one', async () => {
    const registry = new Registry();
    const h = new SeriesHistogram('x_seconds', 'X.', ['a', 'b'], BOUNDS, registry);
    expect(h.series({ a: '1', b: '2' })).toBe(h.series({ b: '2', a: '1' }));
    h.series({ a: '1' }).observe(0.001);
    h.series({ a: '1', b: '' }).observe(0.001);
    const text = await registry.metrics();
    expect(text).toContain('x_seconds_count{a="1"} 1');
    expect(text).toContain('x_seconds_count{a="1",b=""} 1');
  });

  it('a reset zeroes the counts, and a series kept from before counts on', async () => {
    const registry = new Registry();
    const h = new SeriesHistogram('y_seconds', 'Y.', ['a'], BOUNDS, registry);
    const kept = h.series({ a: '1' });
    kept.observe(0.5);
    h.reset();
    kept.observe(2);
    const text = await registry.metrics();
    expect(text).toContain('y_seconds_count{a="1"} 1');
    expect(text).toContain('y_seconds_sum{a="1"} 2');
    expect(text).toContain('y_seconds_bucket{le="1",a="1"} 0');
  });
});
