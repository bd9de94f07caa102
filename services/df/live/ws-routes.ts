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
import type { SessionService } from '../sessions/service.js';
import type { ScreenHub } from './screen-hub.js';
import { FrameSender } from './viewer-socket.js';
import { sessionViewerAccess, userName } from '../sharing/access.js';
import type { SharingService } from '../sharing/service.js';
import { unreachable } from '#shared/unreachable.js';

/** Verifies a bearer token as access control would (revocation, workspace, entitlement). */
export type TokenAuthenticator = (token: string, workspaceId: number | null) => Promise<{ principal: Principal; workspace: ActiveWorkspace }>;

const AUTH_TIMEOUT_MS = 10_000;
const ClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), token: z.string().min(1).max(8_192), workspaceId: z.number().int().positive().optional() }),
  z.object({ type: z.literal('input'), id: z.string().max(100).optional(), action: ControlAction }),
  z.object({ type: z.literal('ping') }),
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

/** `/df/ws/sessions/{sessionId}`: a viewer WebSocket (JPEG frames out, input in, presence). */
export async function viewerSocketRoutes(
  app: FastifyInstance,
  opts: { platform: Platform; sessions: SessionService; hub: ScreenHub; sharing: SharingService; authenticate: TokenAuthenticator; permissionsOf: PermissionResolver },
): Promise<void> {
  const { platform, sessions, hub } = opts;
  app.server.prependListener('upgrade', liftAccessToken);
  await app.register(websocket, { options: { maxPayload: 64 * 1024, perMessageDeflate: false } });
  // A handshake refused over HTTP ends its connection: shared/http/server.ts does it for every route.
  app.get('/ws/sessions/:sessionId', { websocket: true, schema: { hide: true } }, (socket, request) => {
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
    socket.on('close', () => {
      if (joined) void hub.leave(sessionId, viewerId);
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
  });
}
