import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { WebSocket, WebSocketServer } from 'ws';
import { z } from 'zod';
import { MAX_CDP_PAYLOAD_BYTES, relayWebSockets, upstreamOpened } from '#shared/http/ws-relay.js';
import { sessionById } from '#projections/df-sessions/index.js';
import { AppError } from '#shared/errors.js';
import type { Platform } from '../../platform.js';
import type { DataPlane, DataPlaneTarget } from '../core/data-plane.js';
import { idParam } from '../core/caller.js';
import { debugAccess } from '../core/session-access.js';

/** The path clients see: the gateway's `/df` prefix is part of every URL handed out. */
const PUBLIC_PREFIX = '/df/devtools';
const UPSTREAM_TIMEOUT_MS = 15_000;
const MAX_JSON_BYTES = 8 * 1024 * 1024;
/** How often sessions with open CDP sockets are checked, so an ended session's sockets close even when its host is gone. */
const SWEEP_MS = 5_000;
/** `/json`, `/json/version`, `/json/list`, `/json/protocol`, `/json/new?...`, `/json/activate/<id>`, `/json/close/<id>`, and DevTools' own front-end files. */
const HTTP_PATH = /^(json(\/[A-Za-z0-9._-]+)*|devtools\/[A-Za-z0-9._\-/]+)$/;
const WS_PATH = /^devtools\/(browser|page|worker|shared_worker|service_worker|other)\/[A-Za-z0-9_-]{1,128}$/;
const HOP_HEADERS = new Set(['host', 'connection', 'upgrade', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'authorization', 'cookie', 'x-api-key', 'x-workspace-id', 'content-length']);

const Params = z.object({ sessionId: idParam, '*': z.string().max(2_000) });

const isUpgrade = (raw: IncomingMessage) => (raw.headers.upgrade ?? '').toLowerCase() === 'websocket';

/** The `ws-head` bytes `@fastify/websocket` kept of the upgrade (almost always empty). */
function upgradeHead(raw: IncomingMessage): Buffer {
  const key = Object.getOwnPropertySymbols(raw).find((s) => s.description === 'ws-head');
  const head = key ? (raw as unknown as Record<symbol, unknown>)[key] : undefined;
  return Buffer.isBuffer(head) ? head : Buffer.alloc(0);
}

/** What an agent's refusal means to the caller. */
function refusalOf(status: number, body: string): AppError {
  let code = '';
  try {
    code = String((JSON.parse(body) as { code?: unknown }).code ?? '');
  } catch {
    // Not JSON: the status alone decides.
  }
  if (status === 404) return new AppError('NOT_FOUND', 'No such DevTools target');
  if (status === 403 || code === 'NOT_PREPARED') return new AppError('SESSION_NOT_ACTIVE', 'The device is no longer in this session');
  if (code === 'UNSUPPORTED') return new AppError('DEVICE_UNAVAILABLE', 'This device has no DevTools endpoint');
  if (status === 401 || status === 503) return new AppError('DEVICE_UNREACHABLE', 'The device\'s host did not accept the connection');
  return new AppError('DEVICE_COMMAND_FAILED', `DevTools answered ${status}`);
}

/**
 * `/df/devtools/{sessionId}/**`: the Chrome DevTools protocol of a session's device, so
 * `chromium.connectOverCDP('<base>/df/devtools/<sessionId>', { headers })` works unchanged. HTTP
 * (`/json/version`, `/json/list`, ...) is answered as Chromium answers it with every WebSocket URL
 * pointing back here; WebSockets (`/devtools/browser|page/<id>`) are relayed frame by frame over the
 * agent's data plane. The caller needs `df:debug:use` and control of the session (its owner, a
 * session manager, or a `control` invitation); another company's session is 404.
 */
export async function devtoolsRoutes(app: FastifyInstance, opts: { platform: Platform; dataPlane: DataPlane }): Promise<void> {
  const { platform, dataPlane } = opts;
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: MAX_CDP_PAYLOAD_BYTES });
  /** Open relays by session, closed when the session ends or the server stops. */
  const open = new Map<string, Set<{ client: WebSocket | null; upstream: WebSocket }>>();
  let sweeper: NodeJS.Timeout | null = null;

  const sweep = async () => {
    for (const [sessionId, relays] of open) {
      const session = await sessionById(platform.db, sessionId).catch(() => undefined);
      if (session === undefined || session?.status === 'active') continue;
      for (const r of relays) closeRelay(r, 1001, 'session ended');
      open.delete(sessionId);
    }
    if (open.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = null;
    }
  };
  const closeRelay = (r: { client: WebSocket | null; upstream: WebSocket }, code: number, reason: string) => {
    if (r.client && r.client.readyState === WebSocket.OPEN) r.client.close(code, reason);
    else r.client?.terminate();
    r.upstream.terminate();
  };
  const track = (sessionId: string, r: { client: WebSocket | null; upstream: WebSocket }) => {
    let set = open.get(sessionId);
    if (!set) open.set(sessionId, (set = new Set()));
    set.add(r);
    sweeper ??= setInterval(() => void sweep(), SWEEP_MS);
    sweeper.unref();
    return () => {
      set.delete(r);
      if (set.size === 0 && open.get(sessionId) === set) open.delete(sessionId);
    };
  };

  app.addHook('preClose', async () => {
    if (sweeper) clearInterval(sweeper);
    sweeper = null;
    for (const relays of open.values()) for (const r of relays) closeRelay(r, 1001, 'server shutting down');
    open.clear();
    wss.close();
  });

  /** The session (debugged as the debug tunnel is: control of it and `df:debug:use`) and a data-plane target for its device. */
  const authorize = async (request: FastifyRequest, sessionId: string): Promise<DataPlaneTarget> => {
    const { session } = await debugAccess(platform, request, sessionId);
    if (session.status !== 'active') throw new AppError('SESSION_NOT_ACTIVE', `The session is ${session.status}`);
    return dataPlane.target(sessionId, 'devtools');
  };

  // Served under `/df` the gateway is this process and Fastify honours X-Forwarded-* when TRUST_PROXY;
  // on the module's own server (split deployment) the gateway is the only caller, and its
  // X-Forwarded-Host / -Proto name the address the client used.
  const behindGateway = app.prefix === '';
  const forwarded = (request: FastifyRequest, name: string) => {
    const v = request.headers[name];
    const first = (Array.isArray(v) ? v[0] : v)?.split(',')[0]?.trim();
    return first && /^[A-Za-z0-9.:[\]-]{1,300}$/.test(first) ? first : undefined;
  };
  /** `ws(s)://host` as the client reached us. */
  const originOf = (request: FastifyRequest) => {
    const proto = (behindGateway && forwarded(request, 'x-forwarded-proto')) || request.protocol;
    const host = (behindGateway && forwarded(request, 'x-forwarded-host')) || request.host;
    const secure = proto === 'https';
    return { ws: `${secure ? 'wss' : 'ws'}://${host}`, secure, host };
  };

  /** Rewrites Chromium's own addresses in a `/json/*` answer to addresses through this route. */
  const rewrite = (value: unknown, request: FastifyRequest, sessionId: string): unknown => {
    const origin = originOf(request);
    const base = `${PUBLIC_PREFIX}/${sessionId}`;
    const fix = (s: string) =>
      s
        .replace(/^wss?:\/\/[^/]+\/devtools\//, `${origin.ws}${base}/devtools/`)
        .replace(/([?&])wss?=[^/&]+\/devtools\//, `$1${origin.secure ? 'wss' : 'ws'}=${origin.host}${base}/devtools/`)
        .replace(/^\/devtools\//, `${base}/devtools/`);
    const visit = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(visit);
      if (v && typeof v === 'object') {
        const out: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v)) out[k] = typeof x === 'string' && /^(webSocketDebuggerUrl|devtoolsFrontendUrl|devtoolsFrontendUrlCompat)$/.test(k) ? fix(x) : visit(x);
        return out;
      }
      return v;
    };
    return visit(value);
  };

  const forwardHeaders = (request: FastifyRequest, target: DataPlaneTarget) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined || HOP_HEADERS.has(name) || name.startsWith('sec-websocket-') || name.startsWith('x-forwarded-')) continue;
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    headers.authorization = `Bearer ${target.token}`;
    return headers;
  };

  const relayUpgrade = async (request: FastifyRequest, reply: FastifyReply, sessionId: string, rest: string, target: DataPlaneTarget) => {
    if (!WS_PATH.test(rest)) throw new AppError('NOT_FOUND', 'DevTools WebSockets are /devtools/browser/<id> and /devtools/page/<id>');
    const upstreamUrl = new URL(`${target.baseUrl}/devtools/${rest}`);
    upstreamUrl.protocol = upstreamUrl.protocol === 'https:' ? 'wss:' : 'ws:';
    const upstream = new WebSocket(upstreamUrl, {
      headers: forwardHeaders(request, target),
      perMessageDeflate: false,
      maxPayload: MAX_CDP_PAYLOAD_BYTES,
      handshakeTimeout: UPSTREAM_TIMEOUT_MS,
      followRedirects: false,
    });
    const relay = { client: null as WebSocket | null, upstream };
    const untrack = track(sessionId, relay);
    const socket = request.raw.socket as Socket;
    const giveUp = () => upstream.terminate();
    socket.once('close', giveUp);
    try {
      await upstreamOpened(upstream, refusalOf, (err) => new AppError('DEVICE_UNREACHABLE', 'The device\'s host could not be reached', { cause: err }));
    } catch (err) {
      untrack();
      upstream.terminate();
      socket.off('close', giveUp);
      throw err;
    }
    socket.off('close', giveUp);
    if (socket.destroyed) {
      untrack();
      upstream.terminate();
      return;
    }
    // Hold what the device sends until the client's socket is accepted and joined.
    upstream.pause();
    reply.hijack();
    wss.handleUpgrade(request.raw, socket, upgradeHead(request.raw), (client) => {
      relay.client = client;
      relayWebSockets(client, upstream, untrack);
      upstream.resume();
      request.log.info({ sessionId, target: rest.split('/')[1] }, 'devtools connected');
    });
  };

  const proxyHttp = async (request: FastifyRequest, reply: FastifyReply, sessionId: string, rest: string, target: DataPlaneTarget) => {
    if (!HTTP_PATH.test(rest)) throw new AppError('NOT_FOUND', 'No such DevTools resource');
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    let answer: Response;
    try {
      answer = await fetch(`${target.baseUrl}/devtools/${rest}${query}`, {
        method: request.method,
        headers: forwardHeaders(request, target),
        redirect: 'manual',
        signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
      });
    } catch (err) {
      throw new AppError('DEVICE_UNREACHABLE', 'The device\'s host could not be reached', { cause: err });
    }
    const type = answer.headers.get('content-type') ?? 'application/octet-stream';
    const bytes = Buffer.from(await answer.arrayBuffer());
    // The agent's own refusals are JSON with a code; Chromium's (an unknown target) are passed on as they are.
    if (!answer.ok && type.includes('application/json') && bytes.length < MAX_JSON_BYTES && /"code"/.test(bytes.toString('utf8', 0, 200))) {
      throw refusalOf(answer.status, bytes.toString('utf8'));
    }
    reply.code(answer.status);
    if (type.includes('application/json') && rest.startsWith('json') && answer.ok && bytes.length <= MAX_JSON_BYTES) {
      let body: unknown;
      try {
        body = JSON.parse(bytes.toString('utf8'));
      } catch {
        throw new AppError('DEVICE_COMMAND_FAILED', 'DevTools answered malformed JSON');
      }
      reply.header('content-type', 'application/json; charset=UTF-8');
      return reply.send(JSON.stringify(rewrite(body, request, sessionId), null, 3));
    }
    reply.header('content-type', type);
    return reply.send(bytes);
  };

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const params = request.params as z.infer<typeof Params>;
    const rest = params['*'].replace(/\/+$/, '');
    const target = await authorize(request, params.sessionId);
    if (isUpgrade(request.raw)) return relayUpgrade(request, reply, params.sessionId, rest, target);
    return proxyHttp(request, reply, params.sessionId, rest, target);
  };

  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get('/devtools/:sessionId/*', {
    schema: {
      tags: ['Device testing'],
      summary: 'Chrome DevTools protocol of a session\'s device (HTTP /json/* and WebSocket /devtools/*)',
      description:
        '`GET .../json/version`, `.../json/list` (or `.../json`) and `.../json/protocol` answer as Chrome does, with WebSocket URLs through this route; ' +
        'a WebSocket upgrade of `.../devtools/browser/<id>` or `.../devtools/page/<id>` relays CDP frames. Needs `df:debug:use`, and `df:session:manage` for a session of another user.',
      params: Params,
    },
    handler,
  });
  typed.put('/devtools/:sessionId/*', {
    schema: {
      tags: ['Device testing'],
      summary: 'Chrome DevTools `PUT /json/new?<url>` of a session\'s device',
      params: Params,
    },
    handler,
  });
}
