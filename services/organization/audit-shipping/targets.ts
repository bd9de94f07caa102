import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { connect, type TLSSocket } from 'node:tls';
import type { ShippedAuditEntry } from '#projections/org-audit/index.js';
import { httpBody, octetFrame, syslogMessage, type HttpFormat } from './format.js';

/** Where the audit history is shipped: one syslog receiver, one HTTP collector, or both. */
export interface ShippingTarget {
  /** Its key in the state table, and in the route's answer: `syslog` or `http`. */
  readonly kind: 'syslog' | 'http';
  /** Where it is (host and port), never its credentials. */
  readonly host: string;
  /** Sends a batch; resolves once it counts as acknowledged, throws when it did not go. */
  send(items: readonly ShippedAuditEntry[]): Promise<void>;
  /** Called when a connection a batch was written to went away (syslog only: the batch may not have arrived). */
  onLost?: (() => void) | undefined;
  close(): void;
}

const TIMEOUT_MS = 10_000;

/**
 * RFC 5425: syslog over TLS, one connection kept open, each batch written as octet-counted frames;
 * the batch counts as acknowledged when the socket's write callback says it was written. A connection
 * that ends or fails is dropped and the next batch opens another.
 */
export class SyslogTarget implements ShippingTarget {
  readonly kind = 'syslog' as const;
  readonly host: string;
  onLost: (() => void) | undefined;
  private socket: TLSSocket | null = null;
  private readonly hostname: string;
  private readonly port: number;
  private readonly ca: string | undefined;

  constructor(url: string, caFile: string | undefined, private readonly sender: { hostname: string; procId: number }) {
    const u = new URL(url);
    this.hostname = u.hostname.replace(/^\[|\]$/g, '');
    this.port = Number(u.port);
    this.host = u.host;
    // Read at start: a CA file that cannot be read stops the start with its reason.
    this.ca = caFile ? readFileSync(caFile, 'utf8') : undefined;
  }

  private open(): Promise<TLSSocket> {
    if (this.socket && !this.socket.destroyed && this.socket.writable) return Promise.resolve(this.socket);
    return new Promise((resolve, reject) => {
      const socket = connect({
        host: this.hostname,
        port: this.port,
        ...(this.ca ? { ca: this.ca } : {}),
        ...(isIP(this.hostname) ? {} : { servername: this.hostname }),
        timeout: TIMEOUT_MS,
      });
      const fail = (err: Error) => {
        socket.destroy();
        reject(err);
      };
      socket.once('error', fail);
      socket.once('timeout', () => fail(new Error(`no TLS connection to ${this.host} within ${TIMEOUT_MS} ms`)));
      socket.once('secureConnect', () => {
        socket.off('error', fail);
        socket.setTimeout(0);
        const lost = () => {
          if (this.socket === socket) {
            this.socket = null;
            this.onLost?.();
          }
          socket.destroy();
        };
        socket.on('error', lost);
        socket.on('end', lost);
        socket.on('close', lost);
        // The receiver says nothing back; whatever it sends is read and dropped.
        socket.resume();
        this.socket = socket;
        resolve(socket);
      });
    });
  }

  async send(items: readonly ShippedAuditEntry[]): Promise<void> {
    const socket = await this.open();
    const data = items.map((item) => octetFrame(syslogMessage(item, this.sender.hostname, this.sender.procId))).join('');
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`writing to ${this.host} took longer than ${TIMEOUT_MS} ms`));
      }, TIMEOUT_MS);
      socket.write(data, 'utf8', (err) => {
        clearTimeout(timer);
        if (err) reject(err);
        else resolve();
      });
    });
  }

  close(): void {
    const socket = this.socket;
    this.socket = null;
    socket?.end();
  }
}

/** An HTTP collector: each batch POSTed as JSON lines; acknowledged by a 2xx answer. */
export class HttpTarget implements ShippingTarget {
  readonly kind = 'http' as const;
  readonly host: string;

  constructor(
    private readonly url: string,
    private readonly token: string | undefined,
    private readonly format: HttpFormat,
    private readonly hostname: string,
  ) {
    this.host = new URL(url).host;
  }

  async send(items: readonly ShippedAuditEntry[]): Promise<void> {
    const headers: Record<string, string> = {
      'content-type': this.format === 'jsonl' ? 'application/x-ndjson' : 'application/json',
      'user-agent': 'qa-platform-audit-shipping/1',
    };
    if (this.token) headers.authorization = this.format === 'splunk-hec' ? `Splunk ${this.token}` : `Bearer ${this.token}`;
    const res = await fetch(this.url, { method: 'POST', headers, body: httpBody(items, this.format, this.hostname), signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
    await res.arrayBuffer().catch(() => undefined);
    if (res.status < 200 || res.status >= 300) throw new Error(`the collector at ${this.host} answered HTTP ${res.status}`);
  }

  close(): void {}
}
