/*
 * The load generator, run as a child process of the benchmark so that autocannon's sockets and
 * parsing never share an event loop with the servers under test. It answers each request for a run
 * on the IPC channel.
 */
import autocannon from 'autocannon';
import { distribution, type Distribution } from './stats.js';

/** One autocannon run, as asked by the parent. */
export interface LoadRequest {
  url: string;
  headers: Record<string, string>;
  connections: number;
  durationSeconds: number;
  /** A fixed number of requests instead of a duration (`durationSeconds` is then ignored). */
  amount?: number;
  /** How long one request may take before it counts as timed out; autocannon's 10 s when absent. */
  timeoutSeconds?: number;
  /** GET when absent. */
  method?: 'GET' | 'POST';
  /** The body of every request (JSON); give `content-type` in `headers`. */
  body?: string;
}

/** What one run measured; latencies are those of 2xx answers only, in milliseconds. */
export interface LoadResult {
  durationSeconds: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  requestsPerSecond: number;
  latency: Distribution;
}

function run(request: LoadRequest): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    // autocannon's own histogram keeps whole milliseconds; sub-millisecond figures need the raw times.
    const latencies: number[] = [];
    const instance = autocannon(
      {
        url: request.url,
        headers: request.headers,
        connections: request.connections,
        ...(request.amount !== undefined ? { amount: request.amount } : { duration: request.durationSeconds }),
        ...(request.timeoutSeconds !== undefined ? { timeout: request.timeoutSeconds } : {}),
        ...(request.method ? { method: request.method } : {}),
        ...(request.body !== undefined ? { body: request.body } : {}),
      },
      (err, result) => {
        if (err) return reject(err);
        resolve({
          durationSeconds: result.duration,
          ok: result['2xx'],
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          requestsPerSecond: result['2xx'] / result.duration,
          latency: distribution(latencies),
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
    });
  });
}

// A helper whose bench is gone (ended or killed) ends too.
process.on('disconnect', () => process.exit(0));
process.on('message', (message: LoadRequest) => {
  run(message).then(
    (result) => process.send?.({ result }),
    (err: unknown) => process.send?.({ error: err instanceof Error ? err.message : String(err) }),
  );
});
