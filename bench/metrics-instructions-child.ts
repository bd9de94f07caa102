/*
 * One configuration of the metrics-instructions step (bench/metrics-instructions.ts), run under
 * callgrind: argv[2] is `{config, endpoint}`. It starts tracing when the configuration has a ratio (its
 * spans sent to the observer's receiver at `endpoint`), then the embedded server, signs in and answers
 * `{url, metricsUrl, token}`. Then `{gc: true}` runs a full garbage collection (the process runs with
 * `--expose-gc`) and answers `{collected: true}`, `{flush: true}` sends the spans waiting for their batch and answers `{flushed: true}`, and `{stop: true}` stops the server and ends the process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTracing } from '#shared/tracing/index.js';
import { tracingEnvOf, type MetricsConfig } from './metrics-cost.js';
import { signIn, startBenchServer } from './server.js';

const { config, endpoint } = JSON.parse(process.argv[2]!) as { config: MetricsConfig; endpoint: string };
const gc = (globalThis as { gc?: (options: { type: 'major'; execution: 'sync'; flavor: 'regular' }) => void }).gc;
if (!gc) throw new Error('the metrics-instructions child needs --expose-gc');
// A regular major collection. `gc()` without options is a last-resort one, which also throws away the
// optimized code, so every window after it paid for compiling the request's path again (about a hundred
// functions a window, a third of its instructions).
const collect = () => gc({ type: 'major', execution: 'sync', flavor: 'regular' });

// Spans leave in full batches (512), as they do at the measured rates in real time, or when the step asks
// at a window's end; the export's clock is set to its longest (ten minutes), longer than a window takes
// under callgrind, where a clock-driven export would send many more, smaller batches per request.
const tracing = config.ratio !== null ? await startTracing(tracingEnvOf(config.ratio, endpoint, { OTEL_BSP_SCHEDULE_DELAY: '600000' }), 'qa-bench') : null;
const dataDir = mkdtempSync(join(tmpdir(), 'qa-bench-instructions-'));
const server = await startBenchServer(dataDir, { AGENT_ENABLED: 'false', ...(config.metrics ? { METRICS_PORT: '0' } : {}) });
process.send!({ url: server.url, metricsUrl: server.metricsUrl, token: await signIn(server.url) });

process.on('message', (m: { gc?: boolean; flush?: boolean; stop?: boolean }) => {
  if (m.flush) {
    void (tracing?.forceFlush() ?? Promise.resolve()).then(() => process.send!({ flushed: true }));
    return;
  }
  if (m.gc) {
    collect();
    process.send!({ collected: true });
    return;
  }
  void server
    .stop()
    .then(() => tracing?.shutdown())
    .finally(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
});
