import { WebSocket } from 'ws';
import { inChildSpan, SpanKind } from '#shared/tracing/index.js';

/** A CDP error answer (`{error: {code, message}}`) or a lost connection. */
export class CdpError extends Error {
  constructor(
    readonly method: string,
    message: string,
    readonly code?: number,
  ) {
    super(`${method}: ${message}`);
    this.name = 'CdpError';
  }
}

type EventListener = (params: Record<string, unknown>, sessionId: string | undefined) => void;

interface Pending {
  method: string;
  resolve: (value: Record<string, unknown>) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * A Chrome DevTools Protocol client over one browser WebSocket (JSON-RPC). Commands for a page carry
 * the flat `sessionId` of `Target.attachToTarget({flatten: true})`.
 */
export class CdpConnection {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<EventListener>>();
  private closedError: Error | null = null;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (raw) => this.onMessage(raw.toString()));
    socket.on('close', () => this.fail(new CdpError('connection', 'closed')));
    socket.on('error', (err) => this.fail(new CdpError('connection', err.message)));
  }

  /** Opens the browser endpoint (`ws://127.0.0.1:<port>/devtools/browser/<id>`). */
  static connect(url: string, timeoutMs = 10_000): Promise<CdpConnection> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
      const timer = setTimeout(() => {
        socket.terminate();
        reject(new CdpError('connect', `no connection to ${url} in ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once('open', () => {
        clearTimeout(timer);
        resolve(new CdpConnection(socket));
      });
      socket.once('error', (err) => {
        clearTimeout(timer);
        reject(new CdpError('connect', err.message));
      });
    });
  }

  get closed(): boolean {
    return this.closedError !== null;
  }

  /** Sends a command and resolves with its result. */
  send<T = Record<string, unknown>>(method: string, params: object = {}, options: { sessionId?: string; timeoutMs?: number } = {}): Promise<T> {
    // The device call of a browser device: a leaf span of its trace when tracing is on.
    return inChildSpan(`cdp ${method}`, { 'rpc.system': 'cdp', 'rpc.method': method }, () => this.exchange<T>(method, params, options), SpanKind.CLIENT);
  }

  private exchange<T>(method: string, params: object, options: { sessionId?: string; timeoutMs?: number }): Promise<T> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new CdpError(method, `no answer in ${options.timeoutMs ?? 30_000} ms`));
      }, options.timeoutMs ?? 30_000);
      this.pending.set(id, { method, resolve: resolve as (v: Record<string, unknown>) => void, reject, timer });
      this.socket.send(JSON.stringify({ id, method, params, ...(options.sessionId ? { sessionId: options.sessionId } : {}) }));
    });
  }

  /** Calls `listener` for every `method` event; returns the function that removes it. */
  on(method: string, listener: EventListener): () => void {
    let set = this.listeners.get(method);
    if (!set) this.listeners.set(method, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Resolves with the next `method` event of `sessionId` that satisfies `predicate`, or rejects after `timeoutMs`. */
  waitFor(method: string, sessionId: string | undefined, timeoutMs: number, predicate: (p: Record<string, unknown>) => boolean = () => true): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new CdpError(method, `event did not arrive in ${timeoutMs} ms`));
      }, timeoutMs);
      const off = this.on(method, (params, sid) => {
        if (sid !== sessionId || !predicate(params)) return;
        clearTimeout(timer);
        off();
        resolve(params);
      });
    });
  }

  close(): void {
    this.socket.terminate();
    this.fail(new CdpError('connection', 'closed'));
  }

  private onMessage(text: string): void {
    let msg: { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { code: number; message: string }; sessionId?: string };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      return;
    }
    if (msg.id !== undefined) {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      clearTimeout(p.timer);
      if (msg.error) p.reject(new CdpError(p.method, msg.error.message, msg.error.code));
      else p.resolve(msg.result ?? {});
      return;
    }
    if (msg.method) {
      for (const listener of this.listeners.get(msg.method) ?? []) listener(msg.params ?? {}, msg.sessionId);
    }
  }

  private fail(err: Error): void {
    if (this.closedError) return;
    this.closedError = err;
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    this.pending.clear();
  }
}
