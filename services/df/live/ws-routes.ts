import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { z } from 'zod';
import { AppError } from '#shared/errors.js';
import type { ActiveWorkspace, PermissionResolver, Principal } from '#shared/http/principal.js';
import { ControlAction } from '#shared/wire/index.js';
import type { Platform } from '../../platform.js';
import type { SessionPort } from '../core/session-port.js';
import type { ScreenHub } from '../core/screen-hub.js';
import { FrameSender } from './viewer-socket.js';
import { sessionViewerAccess, userName } from '../core/session-access.js';
import type { SharingService } from '../sharing/index.js';
import { unreachable } from '#shared/unreachable.js';
import type { SessionRecord } from '#projections/df-sessions/index.js';
import type { DebugService } from '../debug/index.js';
import { StringDecoder } from 'node:string_decoder';

/** A terminal on the session's device, carried by a viewer socket. */
interface Terminal {
  input(data: string): void;
  resize(cols: number, rows: number): void;
  close(): void;
}

/** Unsent terminal output above which the device's output is paused. */
const TERMINAL_HIGH_WATER = 1024 * 1024;

/**
 * Opens an interactive shell on the device (the agent runs it in a pseudo-terminal) and joins it to
 * the viewer socket: output as `terminal.output` messages (UTF-8 text, split only between
 * characters), input and resizes to the agent; `terminal.closed` when it ends.
 */
async function openTerminal(debug: DebugService, session: SessionRecord, userId: number, socket: WebSocket, size: { cols: number; rows: number }, onClosed: () => void): Promise<Terminal> {
  let ended = false;
  const end = (reason: string) => {
    if (ended) return;
    ended = true;
    onClosed();
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ type: 'terminal.closed', reason }));
  };
  let upstreamRef: WebSocket | null = null;
  const { upstream, untrack } = await debug.connect(session, userId, 'adb', `/terminal?cols=${size.cols}&rows=${size.rows}`, (_code, reason) => {
    end(reason);
    upstreamRef?.terminate();
  });
  upstreamRef = upstream;
  const decoder = new StringDecoder('utf8');
  const sent = () => {
    if (upstream.isPaused && socket.bufferedAmount < TERMINAL_HIGH_WATER / 2) upstream.resume();
  };
  upstream.on('message', (data: RawData) => {
    const text = decoder.write(Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data));
    if (!text || socket.readyState !== socket.OPEN) return;
    socket.send(JSON.stringify({ type: 'terminal.output', data: text }), sent);
    if (socket.bufferedAmount > TERMINAL_HIGH_WATER) upstream.pause();
  });
  upstream.on('close', (_code: number, reason: Buffer) => {
    untrack();
    end(reason.toString() || 'closed');
  });
  upstream.on('error', () => {
    untrack();
    end('the device\'s host closed the terminal');
  });
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ type: 'terminal.opened', cols: size.cols, rows: size.rows }));
  return {
    input: (data) => {
      if (upstream.readyState === upstream.OPEN) upstream.send(Buffer.from(data, 'utf8'), { binary: true });
    },
    resize: (cols, rows) => {
      if (upstream.readyState === upstream.OPEN) upstream.send(JSON.stringify({ type: 'resize', cols, rows }));
    },
    close: () => {
      if (upstream.readyState === upstream.OPEN || upstream.readyState === upstream.CONNECTING) upstream.close(1000, 'closed by the viewer');
    },
  };
}

/** Verifies a bearer token as access control would (revocation, workspace, entitlement). */
export type TokenAuthenticator = (token: string, workspaceId: number | null) => Promise<{ principal: Principal; workspace: ActiveWorkspace }>;

const AUTH_TIMEOUT_MS = 10_000;
/** What a viewer may send: `docs/modules/device-testing.md`, "The viewer socket", lists each `type`. */
export const ClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), token: z.string().min(1).max(8_192), workspaceId: z.number().int().positive().optional() }),
  z.object({ type: z.literal('input'), id: z.string().max(100).optional(), action: ControlAction }),
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('terminal.open'), cols: z.number().int().min(10).max(500).optional(), rows: z.number().int().min(5).max(300).optional() }),
  z.object({ type: z.literal('terminal.input'), data: z.string().min(1).max(16_384) }),
  z.object({ type: z.literal('terminal.resize'), cols: z.number().int().min(10).max(500), rows: z.number().int().min(5).max(300) }),
  z.object({ type: z.literal('terminal.close') }),
]);
type ClientMessage = z.infer<typeof ClientMessage>;

/**
 * Browsers cannot set headers on a WebSocket, so the token may come as `access_token` in the query.
 * It is moved into the Authorization header before Fastify routes (and logs) the request, so the
 * token is never written to a log line and access control checks it like any bearer token.
 */
export function liftAccessToken(request: IncomingMessage): void {
  const url = request.url ?? '';
  if (!url.includes('access_token=') && !url.includes('workspaceId=')) return;
  const parsed = new URL(url, 'http://localhost');
  const token = parsed.searchParams.get('access_token');
  const workspaceId = parsed.searchParams.get('workspaceId');
  parsed.searchParams.delete('access_token');
  parsed.searchParams.delete('workspaceId');
  request.url = parsed.pathname + parsed.search;
  if (token && request.headers.authorization === undefined) request.headers.authorization = `Bearer ${token}`;
  // A browser cannot set X-Workspace-Id on a WebSocket either: a token without a workspace names it here.
  if (workspaceId && request.headers['x-workspace-id'] === undefined) request.headers['x-workspace-id'] = workspaceId;
}

/** Close codes: 4000 + the HTTP status the same refusal would have had. */
const closeWith = (socket: WebSocket, err: AppError) => {
  if (socket.readyState !== socket.OPEN) return;
  socket.send(JSON.stringify({ type: 'error', code: err.code, message: err.message }));
  socket.close(4000 + err.statusCode, err.code);
};

/** The upgrade as the OpenAPI document shows it; its messages are in the module documentation. */
const VIEWER_SOCKET_SCHEMA = {
  tags: ['Device testing: sessions'],
  summary: 'The viewer WebSocket: live screen frames out, input, presence and a terminal (upgrade only)',
  description:
    'Open with `Upgrade: websocket`. Sign in with the `Authorization` header, `access_token` (and `workspaceId`) in the query, or a first message ' +
    '`{"type":"auth","token":"...","workspaceId":1}`; the server answers `hello`. Messages are JSON text with a `type` (`auth`, `input`, `ping`, ' +
    '`terminal.open`, `terminal.input`, `terminal.resize`, `terminal.close` from the viewer; `hello`, `frame` followed by the JPEG as a binary ' +
    'message, `viewers`, `ack`, `error`, `pong`, `reservation`, `terminal.opened`, `terminal.output`, `terminal.closed`, `ended` from the server). ' +
    'A refusal closes with 4000 + the HTTP status and the error code as reason. The full message list, fields and close codes: ' +
    '`docs/modules/device-testing.md`, "The viewer socket".',
  params: z.object({ sessionId: z.string().describe('The session to watch') }),
  querystring: z.object({
    access_token: z.string().optional().describe('The bearer token, for clients that cannot set headers (never logged)'),
    workspaceId: z.string().optional().describe('The workspace, for clients that cannot send X-Workspace-Id'),
  }),
  response: { 101: z.null().meta({ description: 'Switching Protocols: the connection is now the viewer WebSocket' }) },
};

/** `/df/ws/sessions/{sessionId}`: a viewer WebSocket (JPEG frames out, input in, presence). */
export async function viewerSocketRoutes(
  app: FastifyInstance,
  opts: { platform: Platform; sessions: SessionPort; hub: ScreenHub; sharing: SharingService; debug: DebugService; authenticate: TokenAuthenticator; permissionsOf: PermissionResolver },
): Promise<void> {
  const { platform, sessions, hub } = opts;
  app.server.prependListener('upgrade', liftAccessToken);
  await app.register(websocket, { options: { maxPayload: 64 * 1024, perMessageDeflate: false } });
  // A handshake refused over HTTP ends its connection: shared/http/server.ts does it for every route.
  // `wsHandler` rather than `websocket: true`, which would hide the operation from the OpenAPI document.
  app.route({
    method: 'GET',
    url: '/ws/sessions/:sessionId',
    schema: VIEWER_SOCKET_SCHEMA,
    handler: async () => {
      throw new AppError('BAD_REQUEST', 'This is a WebSocket: open it with Upgrade: websocket');
    },
    wsHandler: (socket, request) => {
    // Messages are queued from the first moment: the first may be the token, sent right after opening.
    const inbox: RawData[] = [];
    let deliver: ((data: RawData) => void) | null = null;
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      if (deliver) deliver(data);
      else if (inbox.length < 16) inbox.push(data);
    });
    const sessionId = (request.params as { sessionId: string }).sessionId;
    const viewerId = randomUUID();
    let joined = false;
    let terminal: Terminal | null = null;
    socket.on('close', () => {
      if (joined) void hub.leave(sessionId, viewerId);
      terminal?.close();
    });

    const parse = (data: RawData): ClientMessage | null => {
      try {
        return ClientMessage.parse(JSON.parse(data.toString()));
      } catch {
        socket.send(JSON.stringify({ type: 'error', code: 'BAD_REQUEST', message: 'Unknown or malformed message' }));
        return null;
      }
    };

    const firstMessage = () =>
      new Promise<ClientMessage | null>((resolve) => {
        const timer = setTimeout(() => resolve(null), AUTH_TIMEOUT_MS);
        const take = (data: RawData) => {
          clearTimeout(timer);
          deliver = null;
          resolve(parse(data));
        };
        const queued = inbox.shift();
        if (queued) take(queued);
        else deliver = take;
      });

    void (async () => {
      let principal = request.principal;
      let workspace = request.workspace;
      if (!principal) {
        const first = await firstMessage();
        if (!first || first.type !== 'auth') throw new AppError('UNAUTHORIZED', 'Send {"type":"auth","token":"..."} first, or connect with a token');
        ({ principal, workspace } = await opts.authenticate(first.token, first.workspaceId ?? null));
      }
      const keys = await opts.permissionsOf(principal, workspace ?? null);
      // The owner, a session manager of its workspace, or a user an accepted invitation names (docs/modules/device-testing.md, "Sharing").
      const { session, access, via } = await sessionViewerAccess(platform.db, principal, workspace ?? null, keys, sessionId);
      if (session.status !== 'active') throw new AppError('SESSION_NOT_ACTIVE', `The session is ${session.status}`);
      const canControl = access === 'control';
      const scope = { companyId: session.companyId, workspaceId: session.workspaceId };
      const caller = { userId: principal.userId, ...scope };
      const name = await userName(platform.db, session.companyId, principal.userId);
      const sender = new FrameSender(socket);
      socket.send(JSON.stringify({ type: 'hello', sessionId, viewerId, userId: principal.userId, access, canControl, screen: session.screen }));
      await hub.join({ hostId: session.hostId, deviceId: session.deviceId, sessionId }, session.companyId, {
        id: viewerId,
        userId: principal.userId,
        name,
        access,
        since: platform.now().toISOString(),
        sendFrame: (frame) => sender.offer(frame),
        sendJson: (message) => {
          if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
        },
        close: (code, reason) => socket.close(code, reason),
        stats: () => ({ framesSent: sender.framesSent, framesDropped: sender.framesDropped }),
      });
      joined = true;
      // Who watched, from where, is audit history; a failed record does not cut the viewer off.
      await opts.sharing.viewerJoined(session, principal.userId, access).catch((err: unknown) => request.log.warn({ err, sessionId }, 'recording the viewer failed'));
      if (socket.readyState !== socket.OPEN) {
        await hub.leave(sessionId, viewerId);
        return;
      }
      // An invitee disconnected (or whose invitation was revoked) while joining is not let in by the race.
      if (via === 'invitation') {
        const still = await sessionViewerAccess(platform.db, principal, workspace ?? null, keys, sessionId).catch(() => null);
        if (still?.access !== access) {
          await hub.leave(sessionId, viewerId);
          throw new AppError('SESSION_ACCESS_WITHDRAWN', 'Your access to this session ended while connecting');
        }
      }
      const onMessage = async (message: ClientMessage) => {
        switch (message.type) {
          case 'ping':
            socket.send(JSON.stringify({ type: 'pong' }));
            return;
          case 'auth':
            return;
          case 'terminal.open': {
            if (terminal) throw new AppError('CONFLICT', 'A terminal is already open on this connection');
            if (!canControl || !keys.has('df:debug:use')) throw new AppError('FORBIDDEN', 'A terminal needs control of the session and df:debug:use');
            const current = await sessions.get(scope, sessionId);
            await opts.debug.requireGrant(current, principal.userId, 'adb');
            terminal = await openTerminal(opts.debug, current, principal.userId, socket, { cols: message.cols ?? 80, rows: message.rows ?? 24 }, () => {
              terminal = null;
            });
            return;
          }
          case 'terminal.input':
            if (!terminal) throw new AppError('CONFLICT', 'Open a terminal first ({"type":"terminal.open"})');
            terminal.input(message.data);
            return;
          case 'terminal.resize':
            if (!terminal) throw new AppError('CONFLICT', 'Open a terminal first ({"type":"terminal.open"})');
            terminal.resize(message.cols, message.rows);
            return;
          case 'terminal.close':
            terminal?.close();
            return;
          case 'input': {
            if (!canControl) throw new AppError('FORBIDDEN', 'View-only access: you may watch this session but not send input to its device');
            const current = await sessions.get(scope, sessionId);
            const result = await sessions.control(current, caller, message.action, 'viewer');
            socket.send(JSON.stringify({ type: 'ack', ...(message.id ? { id: message.id } : {}), action: message.action.action, ...result }));
            return;
          }
          default:
            return unreachable(message);
        }
      };
      // Inputs run one after another, in the order the viewer sent them.
      let chain = Promise.resolve();
      const handle = (data: RawData) => {
        const message = parse(data);
        if (!message) return;
        chain = chain.then(() =>
          onMessage(message).catch((err: unknown) => {
            const e = err instanceof AppError ? err : new AppError('INTERNAL_ERROR', 'The input failed');
            if (!(err instanceof AppError)) request.log.warn({ err, sessionId }, 'viewer input failed');
            if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ type: 'error', ...(message.type === 'input' && message.id ? { id: message.id } : {}), code: e.code, message: e.message }));
          }),
        );
      };
      for (const data of inbox.splice(0)) handle(data);
      deliver = handle;
    })().catch((err: unknown) => {
      if (err instanceof AppError) closeWith(socket, err);
      else {
        request.log.warn({ err, sessionId }, 'viewer connection failed');
        closeWith(socket, new AppError('INTERNAL_ERROR', 'The viewer could not be connected'));
      }
    });
    },
  });
}
