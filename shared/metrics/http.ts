import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics } from 'prom-client';
import { AppError } from '../errors.js';
import { exposition, registry, seriesHistogram } from './registry.js';
import type { HistogramSeries } from './series-histogram.js';

/** OpenTelemetry's advised boundaries for `http.server.request.duration`, in seconds. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** The methods named as themselves; any other is `_OTHER` (OpenTelemetry's rule), so a client cannot add label values. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'CONNECT', 'TRACE']);

/** Every request passes here (twice behind the gateway), so its series are looked up once (series-histogram.ts). */
const requestDuration = seriesHistogram(
  'http_server_request_duration_seconds',
  'Duration of HTTP server requests, by method, route template and status (OpenTelemetry http.server.request.duration).',
  ['http_request_method', 'http_route', 'http_response_status_code'],
  HTTP_BUCKETS,
);
/** The hook's own index of those series, by a key it builds without objects: method, status, route template. */
const seriesByKey = new Map<string, HistogramSeries>();

let defaultsCollected = false;

/** Starts collecting Node's own figures (event loop, heap, GC), once per process, when metrics are served. */
function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: registry });
  // Gauges whose names end in `_total`, which promtool (rightly) refuses for a non-counter; the same
  // figures are in `nodejs_active_handles` / `_requests` / `_resources` by type.
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) registry.removeSingleMetric(name);
}

/** How `/metrics` is reached (docs/operations.md, "Metrics"): a token on the public port, a port of its own, or neither. */
export interface MetricsExposure {
  /** `METRICS_TOKEN`: `/metrics` on the server's own port, with `Authorization: Bearer <token>`. */
  token?: string | undefined;
  /** `METRICS_PORT`: a listener of its own (on `host`) where `/metrics` needs no token. */
  port?: number | undefined;
}

/** Whether metrics are exposed at all: without a token or a port they are neither collected per request nor served. */
const metricsExposed = (exposure: MetricsExposure): boolean => exposure.token !== undefined || exposure.port !== undefined;

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Times every request of `app` into `http_server_request_duration_seconds`, labelled with the route
 * template (`/df/api/sessions/:id`), never the URL; a request no route matched has no `http_route`.
 * With `token`, serves `GET /metrics` to that bearer token (401 otherwise).
 */
export function installHttpMetrics(app: FastifyInstance, exposure: MetricsExposure): void {
  if (!metricsExposed(exposure)) return;
  collectProcessMetrics();
  app.addHook('onResponse', (request, reply, done) => {
    const method = KNOWN_METHODS.has(request.method) ? request.method : '_OTHER';
    const route = request.is404 ? undefined : request.routeOptions.url;
    const key = `${method} ${reply.statusCode} ${route ?? ''}`;
    let series = seriesByKey.get(key);
    if (!series) {
      series = requestDuration.series({ http_request_method: method, http_route: route, http_response_status_code: String(reply.statusCode) });
      seriesByKey.set(key, series);
    }
    series.observe(reply.elapsedTime / 1000);
    done();
  });
  const token = exposure.token;
  if (token === undefined) return;
  const expected = digest(`Bearer ${token}`);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const given = request.headers.authorization;
    if (typeof given !== 'string' || !timingSafeEqual(digest(given), expected)) {
      throw new AppError('UNAUTHORIZED', 'The metrics token is required', { headers: { 'www-authenticate': 'Bearer realm="metrics"' } });
    }
    const { body, contentType } = await exposition();
    return reply.type(contentType).send(body);
  });
}

/** A `/metrics` listener of its own. */
export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

const answer = (res: ServerResponse, status: number, code: string, message: string) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...(status === 401 ? { 'www-authenticate': 'Bearer realm="metrics"' } : {}) });
  res.end(JSON.stringify({ statusCode: status, code, error: STATUS_CODES[status], message }));
};

/**
 * Serves `GET /metrics` on `host:port`, every other path 404: without a token (`METRICS_PORT`), or to
 * `token` only (a process with no HTTP server of its own, the agent, on its `PORT` with `METRICS_TOKEN`).
 */
export async function startMetricsServer(options: { host: string; port: number; token?: string }): Promise<MetricsServer> {
  const { host, port, token } = options;
  collectProcessMetrics();
  const expected = token === undefined ? null : digest(`Bearer ${token}`);
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) return answer(res, 404, 'NOT_FOUND', 'Only /metrics is served here');
    const given = req.headers.authorization;
    if (expected && (typeof given !== 'string' || !timingSafeEqual(digest(given), expected))) return answer(res, 401, 'UNAUTHORIZED', 'The metrics token is required');
    exposition().then(
      ({ body, contentType }) => {
        res.writeHead(200, { 'content-type': contentType });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      () => answer(res, 500, 'INTERNAL_ERROR', 'Metrics could not be collected'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
