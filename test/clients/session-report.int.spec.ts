import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runnerConnection, SessionReport, type TestEvent } from '@qa-platform/client';

/**
 * A runner's report of one session against a real HTTP server on loopback that, on cue, drops the
 * connection without an answer, answers 500, or refuses with 404: every event and the outcome arrive, in
 * order and once, across passing troubles; what is refused for good is said at the end.
 */
type Trouble = 'drop' | 500 | 404;
let server: Server;
let url: string;
let troubles: Trouble[] = [];
const received: { method: string; path: string; key: string | undefined; body: unknown }[] = [];

beforeAll(async () => {
  server = createServer((req, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const trouble = troubles.shift();
      if (trouble === 'drop') return void req.socket.destroy();
      if (trouble !== undefined) {
        return void res.writeHead(trouble, { 'content-type': 'application/json' }).end(JSON.stringify({ code: trouble === 404 ? 'NOT_FOUND' : 'INTERNAL', message: 'no' }));
      }
      received.push({ method: req.method!, path: req.url!, key: req.headers['idempotency-key'] as string | undefined, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

beforeEach(() => {
  troubles = [];
  received.length = 0;
});

const event = (type: TestEvent['type'], name: string): TestEvent => ({ type, name, timestamp: '2026-11-29T00:00:00.000Z' });
const reportOf = (warnings: string[], tries = 3) =>
  new SessionReport(runnerConnection({ url, apiKey: 'dfk_test' }), 's1', { tries, wait: async () => undefined, warn: (m) => void warnings.push(m) });
const names = () => received.flatMap((r) => (Array.isArray(r.body) ? (r.body as TestEvent[]).map((e) => `${e.type} ${e.name}`) : [`${r.method} ${r.path}`]));

describe("a runner's session report", () => {
  it('sends every event and the outcome in order and once, through a dropped connection and a 500, with the same key on each try', async () => {
    const warnings: string[] = [];
    const report = reportOf(warnings);
    troubles = ['drop', 500];
    report.event(event('test_started', 'a'));
    report.event(event('test_passed', 'a'));
    report.event(event('test_started', 'b'));
    report.outcome('passed');
    expect(await report.settled()).toEqual([]);
    expect(names()).toEqual(['test_started a', 'test_passed a', 'test_started b', 'PUT /df/api/sessions/s1/outcome']);
    expect(received[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(warnings).toEqual([]);
  });

  it('keeps a call the platform could not take in its round, sends it at the end, and says what it never could', async () => {
    const warnings: string[] = [];
    const report = reportOf(warnings, 2);
    // The first round fails twice (its tries), settling tries again: once more a failure, then a success.
    troubles = [500, 'drop', 500];
    report.event(event('test_failed', 'c'));
    await expect.poll(() => warnings.length).toBe(1);
    report.outcome('failed', 'c: broke');
    expect(await report.settled()).toEqual([]);
    expect(names()).toEqual(['test_failed c', 'PUT /df/api/sessions/s1/outcome']);

    // Never taken: both tries of the round and both of the end fail.
    troubles = [500, 500, 500, 500];
    report.outcome('passed');
    expect(await report.settled()).toEqual([expect.stringMatching(/^could not send the outcome of session s1: PUT \/df\/api\/sessions\/s1\/outcome: 500 INTERNAL no$/)]);
  });

  it('drops a call the platform refuses for good, says so at the end, and sends what follows', async () => {
    const warnings: string[] = [];
    const report = reportOf(warnings);
    troubles = [404];
    report.event(event('test_started', 'd'));
    report.outcome('passed');
    expect(await report.settled()).toEqual([expect.stringMatching(/^the platform refused 1 test event of session s1: POST .*: 404 NOT_FOUND no$/)]);
    expect(names()).toEqual(['PUT /df/api/sessions/s1/outcome']);
  });
});
