import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, retryAfterSeconds, retryingFetch, runnerCall, runnerConnection } from '@qa-platform/client';

/**
 * The clients' answer to "refused for now" (429, 503): they wait the answer's Retry-After and try again, a
 * bounded number of times, a POST keeping one Idempotency-Key — against a real HTTP server on loopback
 * that refuses the first tries of each request.
 */
let server: Server;
let base: string;
let refusals: { status: number; retryAfter: string }[] = [];
const seen: { method: string; url: string; key: string | undefined; body: string }[] = [];

const bodyOf = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

beforeAll(async () => {
  server = createServer(async (req, res) => {
    seen.push({ method: req.method!, url: req.url!, key: req.headers['idempotency-key'] as string | undefined, body: await bodyOf(req) });
    const refusal = refusals.shift();
    if (refusal) {
      res.writeHead(refusal.status, { 'retry-after': refusal.retryAfter, 'content-type': 'application/json' }).end('{"code":"TOO_MANY_REQUESTS","message":"later"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, content: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

beforeEach(() => {
  refusals = [];
  seen.length = 0;
});

describe('tries again what the platform refuses for now', () => {
  it('waits each Retry-After, then answers the success; a POST sends its body and one Idempotency-Key every time', async () => {
    refusals = [{ status: 429, retryAfter: '2' }, { status: 503, retryAfter: '1' }];
    const waits: number[] = [];
    const send = retryingFetch(undefined, { wait: async (ms) => void waits.push(ms) });
    const res = await send(`${base}/v1/results`, { method: 'POST', body: '{"status":"passed"}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(waits).toEqual([2000, 1000]);
    expect(seen.map((s) => s.body)).toEqual(['{"status":"passed"}', '{"status":"passed"}', '{"status":"passed"}']);
    expect(new Set(seen.map((s) => s.key)).size).toBe(1);
    expect(seen[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives up after its tries, and does not wait a Retry-After longer than its longest wait', async () => {
    refusals = [1, 2, 3].map(() => ({ status: 429, retryAfter: '0' }));
    const send = retryingFetch(undefined, { retries: 2, wait: async () => undefined });
    expect((await send(`${base}/df/api/devices`)).status).toBe(429);
    expect(seen.length).toBe(3);
    seen.length = 0;
    refusals = [{ status: 503, retryAfter: '3600' }];
    expect((await retryingFetch(undefined, { wait: async () => expect.fail('waited an hour') })(`${base}/df/api/devices`)).status).toBe(503);
    expect(seen.length).toBe(1);
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(retryAfterSeconds('7')).toBe(7);
    expect(retryAfterSeconds(new Date(Date.UTC(2030, 0, 1, 0, 0, 30)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(30);
    expect(retryAfterSeconds(null)).toBe(1);
    expect(retryAfterSeconds('soon')).toBe(1);
  });

  it("the runners' calls and the typed client go through it", async () => {
    refusals = [{ status: 429, retryAfter: '0' }];
    const connection = { ...runnerConnection({ url: base, apiKey: 'dfk_test' }), retry: { wait: async () => undefined } };
    expect(await runnerCall(connection, 'POST', '/df/api/sessions', { deviceId: 'd' })).toEqual({ ok: true, content: [] });
    expect(seen.length).toBe(2);
    refusals = [{ status: 503, retryAfter: '0' }];
    const client = createClient({ baseUrl: base, apiKey: 'dfk_test', retry: { wait: async () => undefined } });
    const { response } = await client.GET('/df/api/devices', {});
    expect(response.status).toBe(200);
    expect(seen.length).toBe(4);
  });

  it("the runners send a device key as X-Api-Key and a pipeline key as a bearer token; a workspace only when one is named", () => {
    expect(runnerConnection({ url: base, apiKey: 'dfk_test' }, {}).headers).toEqual({ 'x-api-key': 'dfk_test' });
    expect(runnerConnection({ url: base, apiKey: 'qak_test' }, {}).headers).toEqual({ authorization: 'Bearer qak_test' });
    expect(runnerConnection({ url: base, apiKey: 'qak_test' }, { QA_PLATFORM_WORKSPACE_ID: '7' }).headers).toEqual({ authorization: 'Bearer qak_test', 'x-workspace-id': '7' });
  });
});
