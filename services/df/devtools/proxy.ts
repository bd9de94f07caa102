import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { WebSocket, type WebSocketServer } from 'ws';
import { MAX_CDP_PAYLOAD_BYTES, relayWebSockets, upstreamOpened } from '#shared/http/ws-relay.js';
import { clientAddress } from '#shared/http/client-address.js';
import { AppError } from '#shared/errors.js';
import type { DataPlaneTarget } from '../core/data-plane.js';
import type { OpenByKey } from '#shared/open-by-key.js';
import type { Relay } from './relays.js';

/** The path clients see: the gateway's `/df` prefix is part of every URL handed out. */
const PUBLIC_PREFIX = '/df/devtools';
const UPSTREAM_TIMEOUT_MS = 15_000;
const MAX_JSON_BYTES = 8 * 1024 * 1024;
/** `/json`, `/json/version`, `/json/list`, `/json/protocol`, `/json/new?...`, `/json/activate/<id>`, `/json/close/<id>`, and DevTools' own front-end files. */
const HTTP_PATH = /^(json(\/[A-Za-z0-9._-]+)*|devtools\/[A-Za-z0-9._\-/]+)$/;
const WS_PATH = /^devtools\/(browser|page|worker|shared_worker|service_worker|other)\/[A-Za-z0-9_-]{1,128}$/;
const HOP_HEADERS = new Set(['host', 'connection', 'upgrade', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'authorization', 'cookie', 'x-api-key', 'x-workspace-id', 'content-length']);

/** A request for one session's DevTools: the rest of its path, and where its device is reached. */
export interface DevtoolsCall {
  request: FastifyRequest;
  reply: FastifyReply;
  sessionId: string;
  rest: string;
  target: DataPlaneTarget;
}

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

const unreachable = (err: unknown) => new AppError('DEVICE_UNREACHABLE', 'The device\'s host could not be reached', { cause: err });

/** Rewrites Chromium's own addresses in a `/json/*` answer to addresses through this route (`ws(s)://host` as the client reached us). */
function rewrite(value: unknown, origin: { proto: string; host: string }, sessionId: string): unknown {
  const secure = origin.proto === 'https';
  const ws = `${secure ? 'wss' : 'ws'}://${origin.host}`;
  const base = `${PUBLIC_PREFIX}/${sessionId}`;
  const fix = (s: string) =>
    s
      .replace(/^wss?:\/\/[^/]+\/devtools\//, `${ws}${base}/devtools/`)
      .replace(/([?&])wss?=[^/&]+\/devtools\//, `$1${secure ? 'wss' : 'ws'}=${origin.host}${base}/devtools/`)
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
}

function forwardHeaders(request: FastifyRequest, target: DataPlaneTarget): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || HOP_HEADERS.has(name) || name.startsWith('sec-websocket-') || name.startsWith('x-forwarded-')) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  headers.authorization = `Bearer ${target.token}`;
  return headers;
}

/** A WebSocket upgrade: relayed frame by frame to the device's DevTools socket once both sides are open. */
export async function relayUpgrade({ request, reply, sessionId, rest, target }: DevtoolsCall, wss: WebSocketServer, relays: OpenByKey<Relay>): Promise<void> {
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
  const untrack = relays.track(sessionId, relay);
  const socket = request.raw.socket as Socket;
  const giveUp = () => upstream.terminate();
  socket.once('close', giveUp);
  try {
    await upstreamOpened(upstream, refusalOf, unreachable);
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
}

/** An HTTP request (`/json/*`, front-end files): answered as Chromium answers it, its WebSocket URLs pointing back here. */
export async function proxyHttp({ request, reply, sessionId, rest, target }: DevtoolsCall, behindGateway: boolean): Promise<FastifyReply> {
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
    throw unreachable(err);
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
    return reply.send(JSON.stringify(rewrite(body, clientAddress(request, behindGateway), sessionId), null, 3));
  }
  reply.header('content-type', type);
  return reply.send(bytes);
}
