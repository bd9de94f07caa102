import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendWebhook } from './send.js';

// Two endpoints on one port of two loopback addresses: where a delivery lands tells which address it went to.
const servers: Server[] = [];
const seen: { at: string; host: string | undefined; body: string }[] = [];
let port = 0;

function listen(address: string, at: string, wanted: number): Promise<number> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ at, host: req.headers.host, body });
      res.writeHead(202, { 'content-type': 'text/plain' }).end(`taken by ${at}`);
    });
  });
  servers.push(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(wanted, address, () => resolve((server.address() as AddressInfo).port));
  });
}

beforeAll(async () => {
  port = await listen('127.0.0.1', 'checked', 0);
  await listen('127.0.0.2', 'rebound', port);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('webhook delivery', () => {
  it('goes to the address that was checked, though the name resolves elsewhere afterwards, with the name as Host', async () => {
    const lookups: string[] = [];
    // A rebinding name: the first answer passes the check, every later one points somewhere else.
    const resolve = async (hostname: string) => {
      lookups.push(hostname);
      return [{ address: lookups.length === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
    };
    const sent = await sendWebhook(`http://hooks.rebinding.test:${port}/in`, { headers: { 'content-type': 'application/json' }, body: '{"n":1}', timeoutMs: 5000, allowPrivate: true, resolve });
    expect(sent).toEqual({ status: 202, response: 'taken by checked' });
    expect(seen).toEqual([{ at: 'checked', host: `hooks.rebinding.test:${port}`, body: '{"n":1}' }]);
    expect(lookups).toEqual(['hooks.rebinding.test']);
  });

  it('refuses, without connecting, a name that resolves to a special-purpose address where those are not allowed', async () => {
    const before = seen.length;
    const sent = await sendWebhook(`http://hooks.inside.test:${port}/in`, {
      headers: {},
      body: '{}',
      timeoutMs: 5000,
      allowPrivate: false,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    expect(sent).toEqual({ error: 'hooks.inside.test resolves to a loopback, private or reserved address, which this installation does not allow' });
    expect(seen).toHaveLength(before);
  });
});
