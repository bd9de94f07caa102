import { Agent, request } from 'node:http';
import type { Duplex } from 'node:stream';
import { DriverError } from './provider.js';
import { inChildSpan, SpanKind } from '#shared/tracing/index.js';

const REQUEST_TIMEOUT_MS = 20_000;

/** An answer's `value` with an error (W3C shape: `{error, message}`). */
interface W3cFailure {
  error?: string;
  message?: string;
}

/**
 * A W3C-style JSON API on a device port (WebDriverAgent on an iPhone, the UiAutomator2 server on an
 * Android phone), over streams `open` gives (a usbmux Connect, an adb `tcp:` stream): no port on the
 * host. Either a stream per request, or with `keepAlive` one kept for the next request (several
 * requests a second, like touch), with Nagle's algorithm off so a small request leaves at once.
 */
export class W3cHttpClient {
  private readonly agent: Agent | null;

  constructor(
    /** Named in errors: "WebDriverAgent refused POST /session: …". */
    private readonly server: string,
    private readonly open: () => Promise<Duplex>,
    options: { keepAlive?: boolean } = {},
  ) {
    this.agent = options.keepAlive ? keptAliveAgent(open) : null;
  }

  /** `value` of the server's answer; an error answer (or none) is a DriverError naming the server's message. */
  async call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, timeoutMs = REQUEST_TIMEOUT_MS): Promise<T> {
    // The device call (a WebDriverAgent or UiAutomator2 request): a leaf span of its trace, the path's ids as `{id}`.
    const template = path.split('?')[0]!.replace(/\/[^/]*[0-9][^/]*/g, '/{id}');
    return inChildSpan(`${this.server} ${method} ${template}`, { 'http.request.method': method, 'url.template': template }, () => this.exchange<T>(method, path, body, timeoutMs), SpanKind.CLIENT);
  }

  private async exchange<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body: unknown, timeoutMs: number): Promise<T> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const socket = this.agent ? null : await this.open();
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        {
          method,
          path,
          host: 'localhost',
          headers: { ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}), ...(socket ? { connection: 'close' } : {}) },
          ...(socket ? { createConnection: () => socket as never } : { agent: this.agent! }),
          timeout: timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${this.server} did not answer ${method} ${path} within ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(payload);
    }).finally(() => socket?.destroy());
    let parsed: { value?: unknown };
    try {
      parsed = JSON.parse(answer.text) as { value?: unknown };
    } catch {
      throw new DriverError('DEVICE_ERROR', `${this.server} answered ${method} ${path} with ${answer.status} and no JSON`);
    }
    const value = parsed.value as W3cFailure | undefined;
    if (answer.status >= 400 || (value && typeof value === 'object' && typeof value.error === 'string')) {
      const message = `${this.server} refused ${method} ${path}: ${value?.error ?? answer.status}${value?.message ? ` (${value.message.slice(0, 300)})` : ''}`;
      throw new DriverError(answer.status === 404 || value?.error === 'invalid argument' ? 'BAD_REQUEST' : 'DEVICE_ERROR', message);
    }
    return parsed.value as T;
  }

  /** Closes the kept connection, if any. */
  close(): void {
    this.agent?.destroy();
  }
}

/** An HTTP agent with one kept-alive connection, made by `open`. */
function keptAliveAgent(open: () => Promise<Duplex>): Agent {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  (agent as unknown as { createConnection: unknown }).createConnection = (_options: unknown, done: (err: Error | null, socket?: Duplex) => void) => {
    open().then(
      (socket) => {
        (socket as Duplex & { setNoDelay?: (on: boolean) => void }).setNoDelay?.(true);
        done(null, socket);
      },
      (err: Error) => done(err),
    );
    return undefined;
  };
  return agent;
}
