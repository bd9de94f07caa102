import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * A WebSocket handshake the df server refuses over HTTP (a bad token) must end that connection: a
 * client that keeps it open would otherwise hold the server's shutdown (`app.close()`) forever.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ AGENT_ENABLED: 'false' });
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

/** Sends a raw handshake and resolves with the socket, the answer so far, and whether the server ended it. */
function handshake(path: string, headers: Record<string, string>): Promise<{ socket: Socket; answer: () => string; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    const ended = new Promise<void>((done) => {
      socket.once('end', () => done());
      socket.once('close', () => done());
    });
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString();
      if (answer.includes('\r\n\r\n')) resolve({ socket, answer: () => answer, ended });
    });
    socket.once('error', reject);
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n` +
        Object.entries(headers)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('') +
        '\r\n',
    );
  });
}

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise.then(() => 'done' as const), new Promise<'timed out'>((resolve) => setTimeout(() => resolve('timed out'), ms).unref())]);

describe('refused WebSocket handshakes', () => {
  const held: Socket[] = [];

  it('the viewer socket answers a bad token with 401 and ends the connection', async () => {
    const { socket, answer, ended } = await handshake('/df/ws/sessions/00000000-0000-4000-8000-000000000000', { authorization: 'Bearer not-a-token' });
    held.push(socket);
    expect(answer()).toMatch(/^HTTP\/1\.1 401 /);
    expect(await within(ended, 5_000)).toBe('done');
  });

  it('the DevTools relay answers a bad token with 401 and ends the connection', async () => {
    const { socket, answer, ended } = await handshake('/df/devtools/00000000-0000-4000-8000-000000000000/devtools/browser/x', { authorization: 'Bearer not-a-token' });
    held.push(socket);
    expect(answer()).toMatch(/^HTTP\/1\.1 401 /);
    expect(await within(ended, 5_000)).toBe('done');
  });

  it('app.close() finishes promptly while the refused clients keep their end open', async () => {
    // Fresh refusals, whose clients never close their side.
    held.push((await handshake('/df/ws/sessions/00000000-0000-4000-8000-000000000000', { authorization: 'Bearer not-a-token' })).socket);
    held.push((await handshake('/df/devtools/00000000-0000-4000-8000-000000000000/json/version', { authorization: 'Bearer not-a-token' })).socket);
    expect(await within(server.process.app.close(), 5_000)).toBe('done');
    for (const s of held) s.destroy();
  }, 30_000);
});
