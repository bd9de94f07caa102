import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pinnedLookup, resolveChecked, type Resolve } from '#shared/net/index.js';

/** What is kept of an endpoint's answer in the delivery log. */
const SNIPPET_BYTES = 1024;

export interface SendOptions {
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
  /** How the endpoint's name is resolved (the system's resolver unless a test answers). */
  resolve?: Resolve;
}

/** An endpoint's answer: its status and the start of its body; or why there was none. */
export type SendResult = { status: number; response: string } | { error: string };

/**
 * POSTs a delivery to `url`: its host is resolved once and checked (`resolveChecked`), and the request
 * goes to that address (a pinned lookup) with the URL's own name in the Host header and as the TLS
 * server name, so a name that resolves elsewhere after the check cannot move it. Redirects are not
 * followed; no answer within `timeoutMs` is an error.
 */
export async function sendWebhook(url: string, options: SendOptions): Promise<SendResult> {
  const target = new URL(url);
  let checked;
  try {
    checked = await resolveChecked(target.hostname, { allowPrivate: options.allowPrivate, ...(options.resolve ? { resolve: options.resolve } : {}) });
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendResult>((resolve) => {
    const req = request(target, {
      method: 'POST',
      headers: { ...options.headers, 'content-length': Buffer.byteLength(options.body).toString() },
      lookup: pinnedLookup(checked),
      // A fresh connection per delivery: a pooled one could have been opened to another address.
      agent: false,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    req.once('response', (res) => void snippet(res).then((response) => resolve({ status: res.statusCode ?? 0, response })));
    req.once('error', (err) => {
      const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError';
      resolve({ error: timedOut ? `no answer within ${options.timeoutMs} ms` : err.message });
    });
    req.end(options.body);
  });
}

/** The start of an answer's body, for the delivery log; the rest is not read. */
async function snippet(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= SNIPPET_BYTES) break;
    }
  } catch {
    // An answer cut off midway keeps what arrived.
  } finally {
    res.destroy();
  }
  return Buffer.concat(chunks).subarray(0, SNIPPET_BYTES).toString('utf8');
}
