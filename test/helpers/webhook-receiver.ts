import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from './df-farm.js';

/** One webhook message a receiver heard: its event name and data. */
export interface HeardHook {
  type: string;
  data: Record<string, unknown>;
}

/**
 * A webhook endpoint on 127.0.0.1 that answers 204 to every delivery and keeps what it heard, in order.
 * `seen` polls until a message of `type` matching `match` came (with a deadline), and answers it.
 */
export async function startWebhookReceiver(): Promise<{
  url: string;
  hooks: HeardHook[];
  seen(type: string, match: (data: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<HeardHook>;
  close(): Promise<void>;
}> {
  const hooks: HeardHook[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const parsed = JSON.parse(body || '{}') as { type?: string; data?: Record<string, unknown> };
      if (parsed.type) hooks.push({ type: parsed.type, data: parsed.data ?? {} });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    hooks,
    seen: (type, match, timeoutMs = 20_000) => eventually(async () => hooks.find((h) => h.type === type && match(h.data)), { what: `webhook ${type}`, timeoutMs }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
