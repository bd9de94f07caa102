import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { prometheusInstalled, promtool } from '#test/helpers/prometheus.js';

const ADMIN = { email: 'metrics-admin@example.com', password: 'metrics-password' };
const TOKEN = 'metrics-token-of-this-test-0123456789';

/** Every series of an exposition: its name and labels (comments and blank lines left out). */
function seriesOf(text: string): { name: string; labels: Record<string, string> }[] {
  const out: { name: string; labels: Record<string, string> }[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? /.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[3] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    out.push({ name: m[1]!, labels });
  }
  return out;
}

describe('metrics with neither METRICS_TOKEN nor METRICS_PORT', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({});
  });
  afterAll(async () => server?.stop());

  it('answers /metrics 404, with or without a bearer token, and opens no metrics listener', async () => {
    expect((await http(server.url, 'GET', '/metrics')).status).toBe(404);
    expect((await http(server.url, 'GET', '/metrics', { token: TOKEN })).status).toBe(404);
    expect(server.process.metricsUrl).toBeNull();
  });
});

describe('metrics behind METRICS_TOKEN', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer({ METRICS_TOKEN: TOKEN, BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password });
    token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
  });
  afterAll(async () => server?.stop());

  it('refuses /metrics without the token (401) and with another token (401), and answers Prometheus text with it', async () => {
    const none = await http(server.url, 'GET', '/metrics');
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('UNAUTHORIZED');
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect((await http(server.url, 'GET', '/metrics', { token: `${TOKEN}x` })).status).toBe(401);
    // A user's access token is not the metrics token.
    expect((await http(server.url, 'GET', '/metrics', { token })).status).toBe(401);
    const ok = await http(server.url, 'GET', '/metrics', { token: TOKEN });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.body).toContain('# TYPE http_server_request_duration_seconds histogram');
    expect(ok.body).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(ok.body).toMatch(/^nodejs_heap_size_used_bytes /m);
  });

  it('labels request durations with the route template, the method and the status, never the URL', async () => {
    const id = randomUUID();
    expect((await http(server.url, 'GET', `/df/api/sessions/${id}`, { token })).status).toBe(404);
    const text = (await http(server.url, 'GET', '/metrics', { token: TOKEN })).body as string;
    const routes = seriesOf(text).filter((s) => s.name === 'http_server_request_duration_seconds_count');
    expect(routes).toContainEqual({
      name: 'http_server_request_duration_seconds_count',
      labels: { http_request_method: 'GET', http_route: '/df/api/sessions/:sessionId', http_response_status_code: '404' },
    });
    expect(routes).toContainEqual({
      name: 'http_server_request_duration_seconds_count',
      labels: { http_request_method: 'POST', http_route: '/api/v1/auth/login', http_response_status_code: '200' },
    });
    expect(text).not.toContain(id);
  });

  it('puts no id, URL or user text in any label after requests full of them', async () => {
    const id = randomUUID();
    const odd = 'Zebra<script>drop-table';
    const paths = [
      `/df/api/sessions/${id}?name=${odd}`,
      `/api/v1/users/987654321`,
      `/api/v1/workspaces/424242/members?q=${odd}`,
      `/nowhere/${odd}/${id}`,
      `/df/wd/session/${id}/element/${id}/click`,
      `/tmt/api/v1/projects/13579/test-cases?search=${odd}`,
      `/${encodeURIComponent('ünïcödé ' + odd)}`,
    ];
    for (const p of paths) await http(server.url, 'GET', p, { token, headers: { 'user-agent': odd, 'x-request-id': `req-${id}` } });
    await http(server.url, 'FROBNICATE', `/api/v1/users/${id}`, { token }).catch(() => undefined);
    const text = (await http(server.url, 'GET', '/metrics', { token: TOKEN })).body as string;
    const series = seriesOf(text);
    expect(series.length).toBeGreaterThan(50);
    const values = series.flatMap((s) => Object.values(s.labels));
    for (const forbidden of [id, 'Zebra', '987654321', '424242', '13579', 'nowhere', 'ünïcödé', '%C3', 'FROBNICATE', 'req-']) {
      expect(values.filter((v) => v.includes(forbidden)), forbidden).toEqual([]);
    }
    // Every route label is a template of a registered route: no path segment that is a number or a uuid.
    const routes = new Set(series.map((s) => s.labels.http_route).filter((r): r is string => r !== undefined));
    for (const r of routes) expect(r, r).not.toMatch(/\/(\d+|[0-9a-f]{8}-[0-9a-f-]{27})(\/|$)/);
    // A request no route matched is counted without a route.
    expect(series.some((s) => s.name === 'http_server_request_duration_seconds_count' && s.labels.http_route === undefined && s.labels.http_response_status_code === '404')).toBe(true);
  });

  it.skipIf(!prometheusInstalled)('answers text that promtool check metrics finds no problem in', async () => {
    const text = (await http(server.url, 'GET', '/metrics', { token: TOKEN })).body as string;
    const checked = await promtool(['check', 'metrics'], text);
    expect(checked.output).toBe('');
    expect(checked.code).toBe(0);
  });
});

describe('metrics on METRICS_PORT', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ METRICS_PORT: '0' });
  });
  afterAll(async () => server?.stop());

  it('serves /metrics on its own port without a token, and nothing else there', async () => {
    const url = server.process.metricsUrl!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(url).port).not.toBe(new URL(server.url).port);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('# TYPE http_server_request_duration_seconds histogram');
    expect((await fetch(new URL('/health', url))).status).toBe(404);
    expect((await fetch(url, { method: 'POST' })).status).toBe(404);
  });

  it('does not serve /metrics on the public port', async () => {
    expect((await http(server.url, 'GET', '/metrics')).status).toBe(404);
  });
});

describe('rate-limit refusals', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ METRICS_PORT: '0', RATE_LIMIT_PER_ADDRESS: '2' });
  });
  afterAll(async () => server?.stop());

  it('counts each 429 by its budget, never by the address', async () => {
    const refusals = async () => {
      const text = await (await fetch(server.process.metricsUrl!)).text();
      return seriesOf(text).filter((s) => s.name === 'qa_rate_limit_refusals_total');
    };
    const valueOf = async () => {
      const text = await (await fetch(server.process.metricsUrl!)).text();
      return Number(/^qa_rate_limit_refusals_total\{budget="address"\} (\d+)/m.exec(text)?.[1] ?? 0);
    };
    const before = await valueOf();
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await http(server.url, 'GET', '/openapi.json')).status);
    expect(statuses.filter((s) => s === 429).length).toBe(2);
    expect(await valueOf()).toBe(before + 2);
    for (const s of await refusals()) expect(Object.values(s.labels).join(' ')).not.toContain('127.0.0.1');
  });
});
