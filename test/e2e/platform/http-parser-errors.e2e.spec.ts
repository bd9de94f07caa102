import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * What Node's HTTP parser refuses before any route sees it is answered in the platform's JSON error
 * shape, with a stable code, and the connection closes cleanly (the answer, then the end of the
 * stream, no reset): on the gateway process and on a module's own server, for plain requests and
 * for WebSocket upgrades. Raw sockets, since no HTTP client sends such requests.
 */
let gateway: TestServer;
let module: TestServer;

beforeAll(async () => {
  [gateway, module] = await Promise.all([startTestServer(), startTestServer({}, ['organization', 'projections'])]);
}, 120_000);

afterAll(async () => {
  await gateway?.stop();
  await module?.stop();
});

/** Sends raw bytes and reads until the server ends the connection: what came back, and how the connection ended. */
function raw(url: string, request: string): Promise<{ status: number; headers: Record<string, string>; body: any; ended: 'end' | string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let ended: 'end' | string = 'open';
    socket.on('data', (c) => chunks.push(c));
    socket.on('end', () => (ended = ended === 'open' ? 'end' : ended));
    socket.on('error', (err: NodeJS.ErrnoException) => (ended = err.code ?? 'error'));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      try {
        resolve({ status: Number(statusLine.split(' ')[1]), headers, body: body ? JSON.parse(body) : null, ended });
      } catch (err) {
        reject(new Error(`not a JSON answer: ${JSON.stringify(text.slice(0, 300))} (${(err as Error).message})`));
      }
    });
    socket.setTimeout(15_000, () => socket.destroy(new Error('the server neither answered nor closed')));
    socket.end(request);
  });
}

const hugeToken = 'a'.repeat(64 * 1024);

for (const [name, server] of [
  ['gateway', () => gateway],
  ['a module server (organization)', () => module],
] as const) {
  describe(`HTTP parser refusals: ${name}`, () => {
    it('a 64 KB Authorization header is 431 HEADERS_TOO_LARGE in the JSON error shape, and the connection ends cleanly', async () => {
      const res = await raw(server().url, `GET /api/v1/users/me HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${hugeToken}\r\n\r\n`);
      expect(res.status).toBe(431);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers.connection).toBe('close');
      expect(res.body).toEqual({ statusCode: 431, code: 'HEADERS_TOO_LARGE', error: 'Request Header Fields Too Large', message: expect.any(String) });
      expect(res.ended).toBe('end');
    });

    it('a malformed request line is 400 MALFORMED_REQUEST, and so is a malformed header', async () => {
      const line = await raw(server().url, 'GET /health HTTP/9 nonsense\r\nHost: localhost\r\n\r\n');
      expect([line.status, line.body]).toEqual([400, { statusCode: 400, code: 'MALFORMED_REQUEST', error: 'Bad Request', message: expect.any(String) }]);
      expect(line.ended).toBe('end');
      const header = await raw(server().url, 'GET /health HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n');
      expect([header.status, header.body.code]).toEqual([400, 'MALFORMED_REQUEST']);
      const framing = await raw(server().url, 'POST /api/v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nabcde');
      expect([framing.status, framing.body.code]).toEqual([400, 'MALFORMED_REQUEST']);
    });

    it('a WebSocket upgrade that fails in the parser gets the same JSON answer', async () => {
      const res = await raw(
        server().url,
        `GET /df/ws/sessions/x HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nX-Token: ${hugeToken}\r\n\r\n`,
      );
      expect([res.status, res.body.code, res.ended]).toEqual([431, 'HEADERS_TOO_LARGE', 'end']);
    });

    it('a well-formed request on a fresh connection is still served', async () => {
      const res = await raw(server().url, 'GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      expect(res.status).toBe(200);
    });
  });
}
