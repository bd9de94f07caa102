import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { carriesTrace, contextFrom, inSpan, SpanKind } from '#shared/tracing/index.js';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { DataPlaneRefusal, DataPlaneVerifier, type DataPlaneClaims, type DataPlaneJwks } from './tokens.js';

export type { DataPlaneClaims, DataPlaneJwks } from './tokens.js';
export { DataPlaneRefusal } from './tokens.js';

/** One kind of traffic on the data plane, under `/devices/{deviceId}{prefix}`. */
export interface DataPlaneRoute {
  /** path prefix after `/devices/{deviceId}`, e.g. '/devtools' or '/wd' */
  prefix: string;
  /** The `scope` claim a token must carry to use this route. */
  scope: string;
  http(req: IncomingMessage, res: ServerResponse, rest: string, claims: DataPlaneClaims): void | Promise<void>;
  upgrade?(req: IncomingMessage, socket: Duplex, head: Buffer, rest: string, claims: DataPlaneClaims): void | Promise<void>;
}

export interface DataPlaneServerOptions {
  hostId: string;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Port (0: any free port). */
  port?: number;
  /** URL the service should use instead of the listening address (behind NAT or a proxy). */
  advertiseUrl?: string | undefined;
  logger: Logger;
  /** The session a device is prepared for right now (`in_session`), or null. */
  sessionOf(deviceId: string): string | null;
  now?: () => Date;
}

const DEVICE_PATH = /^\/devices\/([A-Za-z0-9_-]{1,128})(\/[^?#]*)?(\?.*)?$/;
/** The token may come as a query parameter for clients that cannot set headers; it is removed before a route sees the URL. */
const TOKEN_PARAM = 'dp_token';

const errorBody = (status: number, code: string, message: string) => JSON.stringify({ statusCode: status, code, error: STATUS_CODES[status] ?? 'Error', message });

/** Answers an upgrade with a plain HTTP response and closes the connection. */
export function refuseUpgrade(socket: Duplex, status: number, code: string, message: string): void {
  if (socket.destroyed || socket.writableEnded) return;
  const body = Buffer.from(errorBody(status, code, message));
  socket.end(
    Buffer.concat([
      Buffer.from(
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${body.length}\r\n\r\n`,
      ),
      body,
    ]),
    () => socket.destroy(),
  );
}

function sendJson(res: ServerResponse, status: number, code: string, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
  res.end(errorBody(status, code, message));
}

/**
 * The agent's data plane: HTTP and WebSocket straight from the gateway to the device's own endpoints
 * (CDP, WebDriver). Every request and upgrade carries a short-lived token the service signed for one
 * host, device, session and scope; the verification keys come with the service's answer to the
 * agent's hello, and until they have come everything is refused. Upgraded connections are remembered
 * per device and session, and closed as soon as the device leaves that session.
 */
export class DataPlaneServer {
  private readonly routes: DataPlaneRoute[] = [];
  private readonly verifier: DataPlaneVerifier;
  private readonly server: Server;
  private readonly upgraded = new Map<Duplex, { deviceId: string; sessionId: string }>();
  private address: string | null = null;

  constructor(private readonly options: DataPlaneServerOptions) {
    this.verifier = new DataPlaneVerifier({ hostId: options.hostId, ...(options.now ? { now: options.now } : {}) });
    this.server = createServer((req, res) => void this.onRequest(req, res));
    this.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.onUpgrade(req, socket, head));
    this.server.on('clientError', (_err, socket) => socket.destroy());
  }

  /** Adds a route; the longest matching prefix wins. */
  addRoute(route: DataPlaneRoute): void {
    if (!/^\/[A-Za-z0-9_-]+$/.test(route.prefix)) throw new Error(`Invalid data-plane prefix ${route.prefix}`);
    this.routes.push(route);
    this.routes.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  /** The URL the service reaches this server at (`advertiseUrl`, else the listening address). */
  get url(): string {
    if (this.options.advertiseUrl) return this.options.advertiseUrl.replace(/\/+$/, '');
    if (!this.address) throw new Error('The data plane is not listening');
    return this.address;
  }

  /** Whether verification keys have arrived. */
  get ready(): boolean {
    return this.verifier.ready;
  }

  async start(): Promise<void> {
    const host = this.options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port ?? 0, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const { port } = this.server.address() as AddressInfo;
    this.address = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    this.options.logger.info({ url: this.url }, 'data plane listening');
  }

  async stop(): Promise<void> {
    for (const socket of this.upgraded.keys()) socket.destroy();
    this.upgraded.clear();
    if (!this.server.listening) return;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  /** Keys (the service's public JWKS) that verify data-plane tokens; replaces the previous set. */
  setKeys(jwks: DataPlaneJwks): void {
    this.verifier.setKeys(jwks);
  }

  /**
   * Closes upgraded connections of sessions their device no longer holds; the host calls it whenever
   * a device's state changes (released, broken).
   */
  revalidate(): void {
    for (const [socket, owner] of this.upgraded) {
      if (this.options.sessionOf(owner.deviceId) === owner.sessionId) continue;
      this.upgraded.delete(socket);
      socket.destroy();
    }
  }

  /** Number of upgraded connections open (for tests and diagnostics). */
  get openConnections(): number {
    return this.upgraded.size;
  }

  private async authorize(req: IncomingMessage): Promise<{ route: DataPlaneRoute; rest: string; claims: DataPlaneClaims }> {
    const parsed = DEVICE_PATH.exec(req.url ?? '');
    if (!parsed) throw new DataPlaneRefusal(404, 'NOT_FOUND', 'No such data-plane path');
    const deviceId = parsed[1]!;
    const path = parsed[2] ?? '';
    let query = parsed[3] ?? '';
    let token: string | null = null;
    const header = req.headers.authorization;
    if (typeof header === 'string') {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!m) throw new DataPlaneRefusal(401, 'UNAUTHORIZED', 'Authorization header must be "Bearer <token>"');
      token = m[1]!;
    }
    if (query.includes(`${TOKEN_PARAM}=`)) {
      const params = new URLSearchParams(query.slice(1));
      token ??= params.get(TOKEN_PARAM);
      params.delete(TOKEN_PARAM);
      const left = params.toString();
      query = left ? `?${left}` : '';
    }
    // The token is for this hop only: Chromium or Appium behind the route never sees it.
    delete req.headers.authorization;
    if (!token) throw new DataPlaneRefusal(401, 'UNAUTHORIZED', 'A data-plane token is required');
    const route = this.routes.find((r) => path === r.prefix || path.startsWith(`${r.prefix}/`));
    if (!route) throw new DataPlaneRefusal(404, 'NOT_FOUND', 'No such data-plane route');
    const claims = await this.verifier.verify(token);
    if (claims.scope !== route.scope) throw new DataPlaneRefusal(403, 'FORBIDDEN', `The token's scope is ${claims.scope}, not ${route.scope}`);
    if (claims.deviceId !== deviceId) throw new DataPlaneRefusal(403, 'FORBIDDEN', 'The token is for another device');
    if (this.options.sessionOf(deviceId) !== claims.sessionId) throw new DataPlaneRefusal(403, 'FORBIDDEN', 'The device is not in the token\'s session');
    return { route, rest: path.slice(route.prefix.length) + query, claims };
  }

  /** A request carrying a W3C `traceparent` (the hub's WebDriver command) is handled in a span continuing its trace. */
  private onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!carriesTrace(req.headers)) return this.handle(req, res);
    const method = req.method ?? 'GET';
    const prefix = /^\/[^/]*(?:\/[^/]*\/([A-Za-z0-9_-]+))?/.exec(req.url ?? '/')?.[1];
    return inSpan(`data plane ${method}${prefix ? ` /${prefix}` : ''}`, { 'http.request.method': method }, () => this.handle(req, res), SpanKind.SERVER, contextFrom(req.headers));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let found: Awaited<ReturnType<DataPlaneServer['authorize']>>;
    try {
      found = await this.authorize(req);
    } catch (err) {
      const r = refusalOf(err);
      if (r.status >= 500) this.options.logger.warn({ err }, 'data-plane request failed');
      sendJson(res, r.status, r.code, r.message);
      return;
    }
    try {
      await found.route.http(req, res, found.rest, found.claims);
    } catch (err) {
      const r = refusalOf(err);
      if (r.status >= 500) this.options.logger.warn({ err, route: found.route.prefix }, 'data-plane route failed');
      sendJson(res, r.status, r.code, r.message);
    }
  }

  private async onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    let found: Awaited<ReturnType<DataPlaneServer['authorize']>>;
    try {
      found = await this.authorize(req);
      if (!found.route.upgrade) throw new DataPlaneRefusal(404, 'NOT_FOUND', 'This route does not accept WebSockets');
    } catch (err) {
      const r = refusalOf(err);
      refuseUpgrade(socket, r.status, r.code, r.message);
      return;
    }
    const owner = { deviceId: found.claims.deviceId, sessionId: found.claims.sessionId };
    this.upgraded.set(socket, owner);
    socket.once('close', () => this.upgraded.delete(socket));
    (socket as Socket).setNoDelay?.(true);
    try {
      await found.route.upgrade!(req, socket, head, found.rest, found.claims);
    } catch (err) {
      const r = refusalOf(err);
      if (r.status >= 500) this.options.logger.warn({ err, route: found.route.prefix }, 'data-plane upgrade failed');
      refuseUpgrade(socket, r.status, r.code, r.message);
    }
  }
}

function refusalOf(err: unknown): { status: number; code: string; message: string } {
  if (err instanceof DataPlaneRefusal) return { status: err.status, code: err.code, message: err.message };
  return { status: 502, code: 'DEVICE_ERROR', message: err instanceof Error ? err.message.slice(0, 300) : 'The device endpoint failed' };
}
