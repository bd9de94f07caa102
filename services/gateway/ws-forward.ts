import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { WebSocket, WebSocketServer } from 'ws';
import { relayWebSockets } from '#shared/http/ws-relay.js';
import { pathOf } from './policy.js';

/** A prefix the gateway forwards to a module's own server (see `buildApp`). */
export interface ForwardedPrefix {
  prefix: string;
  /** The prefix is removed from the path before forwarding (`/df/ws/x` → `<url>/ws/x`). */
  strip: boolean;
  /** Base URL of the module's server (http or https). */
  url: string;
}

const MAX_PAYLOAD_BYTES = 32 * 1024 * 1024;
const HANDSHAKE_TIMEOUT_MS = 10_000;
const MAX_REFUSAL_BODY_BYTES = 16 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** The subprotocol the module chose, for the client's handshake. */
const UPSTREAM_PROTOCOL = Symbol('upstream-protocol');
type UpgradeRequest = IncomingMessage & { [UPSTREAM_PROTOCOL]?: string };

/** Headers of the client's handshake that belong to its own hop (the relay makes a new handshake). */
const HOP_HEADERS = new Set([
  'host',
  'connection',
  'upgrade',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'transfer-encoding',
  'te',
  'trailer',
  'content-length',
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-extensions',
  'sec-websocket-protocol',
  'sec-websocket-accept',
]);

/** The forwarded prefix owning `path`, matched on whole segments, first match wins. */
export function forwardFor(forwards: readonly ForwardedPrefix[], path: string): ForwardedPrefix | undefined {
  return forwards.find((f) => path === f.prefix || path.startsWith(`${f.prefix}/`));
}

/** The module-side WebSocket URL of a gateway URL (path and query), the prefix stripped if asked. */
export function upstreamUrl(f: ForwardedPrefix, url: string): string {
  const path = pathOf(url);
  const query = url.slice(path.length);
  const target = new URL((f.strip ? path.slice(f.prefix.length) || '/' : path) + query, f.url);
  target.protocol = target.protocol === 'https:' ? 'wss:' : 'ws:';
  return target.toString();
}

function forwardedHeaders(headers: IncomingHttpHeaders, requestId: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  out['x-request-id'] = requestId;
  return out;
}

/** Answers an upgrade with a plain HTTP response and closes the connection. */
function refuse(socket: Duplex, status: number, body: string | Buffer, contentType = 'application/json; charset=utf-8', requestId?: string): void {
  if (socket.destroyed || socket.writableEnded) return;
  const payload = typeof body === 'string' ? Buffer.from(body) : body;
  socket.end(
    Buffer.concat([
      Buffer.from(
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
          'Connection: close\r\n' +
          `Content-Type: ${contentType}\r\n` +
          `Content-Length: ${payload.length}\r\n` +
          (requestId ? `X-Request-Id: ${requestId}\r\n` : '') +
          '\r\n',
      ),
      payload,
    ]),
    // A client that does not read the answer must not hold the connection (nor the server's close).
    () => socket.destroy(),
  );
}

const errorJson = (statusCode: number, code: string, message: string) =>
  JSON.stringify({ statusCode, code, error: STATUS_CODES[statusCode] ?? 'Error', message });

export interface WsForwardingOptions {
  forwards: readonly ForwardedPrefix[];
  logger: FastifyBaseLogger;
}

/**
 * Relays WebSocket upgrades under forwarded prefixes to the module's server, as `reply-from` does for
 * plain HTTP. The module's server authenticates the handshake (its own access control, and the
 * viewer socket's first message or `access_token` query), so the gateway opens the upstream socket
 * first and accepts the client only once the module has accepted it; a refusal of the module (status
 * and body) is the client's answer. Frames are then relayed both ways with back-pressure.
 *
 * Node hands an upgrade to every `upgrade` listener, so when the server is ready the relay becomes the
 * only one and passes upgrades of paths it does not forward to the listeners that were there (an
 * in-process module's `@fastify/websocket`); with none, such an upgrade gets 404.
 *
 * The request URL (with a possible `access_token`) is never logged: only its path.
 */
export function installWsForwarding(app: FastifyInstance, options: WsForwardingOptions): void {
  const { forwards, logger } = options;
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: MAX_PAYLOAD_BYTES, handleProtocols: (_protocols, request) => (request as UpgradeRequest)[UPSTREAM_PROTOCOL] || false });
  const open = new Set<{ client?: WebSocket; upstream: WebSocket }>();

  const forward = (f: ForwardedPrefix, request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = pathOf(request.url ?? '/');
    const given = request.headers['x-request-id'];
    const requestId = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    const log = logger.child({ reqId: requestId });
    if (request.method !== 'GET') {
      refuse(socket, 400, errorJson(400, 'BAD_REQUEST', 'A WebSocket handshake is a GET'), undefined, requestId);
      return;
    }
    const protocols = (request.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    const upstream = new WebSocket(upstreamUrl(f, request.url ?? '/'), protocols, {
      headers: forwardedHeaders(request.headers, requestId),
      perMessageDeflate: false,
      maxPayload: MAX_PAYLOAD_BYTES,
      handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
      followRedirects: false,
    });
    const entry: { client?: WebSocket; upstream: WebSocket } = { upstream };
    open.add(entry);
    // The client gives up before the module answers: give up too.
    const onEarlyClose = () => upstream.terminate();
    socket.on('error', onEarlyClose);
    socket.on('close', onEarlyClose);
    upstream.on('close', () => open.delete(entry));

    upstream.on('unexpected-response', (_req, res) => {
      // The module refused the handshake: its status and (bounded) body are the answer.
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        refuse(socket, res.statusCode ?? 502, Buffer.concat(chunks), res.headers['content-type'] ?? 'text/plain', requestId);
        res.destroy();
        upstream.terminate();
      };
      res.on('data', (chunk: Buffer) => {
        if (size >= MAX_REFUSAL_BODY_BYTES) return;
        chunks.push(chunk.subarray(0, MAX_REFUSAL_BODY_BYTES - size));
        size += chunk.length;
      });
      res.on('end', done);
      res.on('error', done);
      log.info({ path, statusCode: res.statusCode }, 'websocket upgrade refused by the module');
    });
    upstream.on('error', (err) => {
      if (entry.client || socket.destroyed || socket.writableEnded) return;
      log.warn({ path, err: { message: err.message } }, 'websocket upstream failed');
      refuse(socket, 502, errorJson(502, 'BAD_GATEWAY', 'The module could not be reached'), undefined, requestId);
    });
    upstream.on('open', () => {
      socket.off('error', onEarlyClose);
      socket.off('close', onEarlyClose);
      if (socket.destroyed) {
        upstream.terminate();
        return;
      }
      // Hold what the module sends until the client socket is accepted and wired.
      upstream.pause();
      (request as UpgradeRequest)[UPSTREAM_PROTOCOL] = upstream.protocol;
      wss.handleUpgrade(request, socket, head, (client) => {
        entry.client = client;
        relayWebSockets(client, upstream);
        upstream.resume();
        log.info({ path, module: f.prefix }, 'websocket forwarded');
      });
    });
  };

  app.addHook('onReady', async () => {
    const server = app.server;
    const others = server.listeners('upgrade') as ((request: IncomingMessage, socket: Duplex, head: Buffer) => void)[];
    server.removeAllListeners('upgrade');
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const isWebSocket = (request.headers.upgrade ?? '').toLowerCase() === 'websocket';
      const f = isWebSocket ? forwardFor(forwards, pathOf(request.url ?? '/')) : undefined;
      if (f) {
        socket.on('error', () => socket.destroy());
        forward(f, request, socket, head);
        return;
      }
      if (others.length > 0) {
        for (const listener of others) listener.call(server, request, socket, head);
        return;
      }
      // Without this listener Node would have served the request as plain HTTP (an `Upgrade: h2c`
      // from curl, a WebSocket to a path nobody relays): do so, on a connection closed afterwards.
      if (head.length > 0) socket.unshift(head);
      const response = new ServerResponse(request);
      response.shouldKeepAlive = false;
      response.assignSocket(socket as Socket);
      response.on('finish', () => {
        response.detachSocket(socket as Socket);
        socket.end(() => socket.destroy());
      });
      socket.on('error', () => socket.destroy());
      server.emit('request', request, response);
    });
  });

  app.addHook('preClose', async () => {
    for (const { client, upstream } of open) {
      if (client && client.readyState === WebSocket.OPEN) client.close(1001, 'gateway shutting down');
      upstream.terminate();
    }
    open.clear();
    wss.close();
  });
}
