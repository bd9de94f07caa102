import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { z } from 'zod';
import type { SessionRecord } from '#projections/df-sessions/index.js';
import { AppError } from '#shared/errors.js';
import type { ActiveWorkspace, PermissionResolver, Principal } from '#shared/http/principal.js';
import { unreachable } from '#shared/unreachable.js';
import { ControlAction } from '#shared/wire/index.js';
import type { Platform } from '../../platform.js';
import type { DebugService } from '../debug/index.js';
import type { SessionPort } from '../core/session-port.js';
import { sessionViewerAccess, userName } from '../core/session-access.js';
import type { SharingService } from '../sharing/index.js';
import type { ScreenHub } from '../core/screen-hub.js';
import { openTerminal, type Terminal } from './terminal.js';
import { FrameSender } from './viewer-socket.js';

/** Verifies a bearer token as access control would (revocation, workspace, entitlement). */
export type TokenAuthenticator = (token: string, workspaceId: number | null) => Promise<{ principal: Principal; workspace: ActiveWorkspace }>;

/** What a viewer socket needs. */
export interface ViewerSocketDeps {
  platform: Platform;
  sessions: SessionPort;
  hub: ScreenHub;
  sharing: SharingService;
  debug: DebugService;
  authenticate: TokenAuthenticator;
  permissionsOf: PermissionResolver;
}

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

/** Close codes: 4000 + the HTTP status the same refusal would have had. */
const closeWith = (socket: WebSocket, err: AppError) => {
  if (socket.readyState !== socket.OPEN) return;
  socket.send(JSON.stringify({ type: 'error', code: err.code, message: err.message }));
  socket.close(4000 + err.statusCode, err.code);
};

/** A viewer let in: who, with which access and permissions, to which session. */
interface Admitted {
  principal: Principal;
  keys: ReadonlySet<string>;
  session: SessionRecord;
  canControl: boolean;
}

/** One viewer socket, from its first message to its close: sign-in, access, joining the screen hub, then its messages one by one. */
export class ViewerConnection {
  // Messages are queued from the first moment: the first may be the token, sent right after opening.
  private readonly inbox: RawData[] = [];
  private deliver: ((data: RawData) => void) | null = null;
  private readonly viewerId = randomUUID();
  private joined = false;
  private terminal: Terminal | null = null;

  constructor(
    private readonly socket: WebSocket,
    private readonly request: FastifyRequest,
    private readonly sessionId: string,
    private readonly deps: ViewerSocketDeps,
  ) {
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      if (this.deliver) this.deliver(data);
      else if (this.inbox.length < 16) this.inbox.push(data);
    });
    socket.on('close', () => {
      if (this.joined) void deps.hub.leave(sessionId, this.viewerId);
      this.terminal?.close();
    });
  }

  /** Signs the viewer in and serves it; a refusal closes the socket with its code. */
  start(): void {
    this.open().catch(async (err: unknown) => {
      // A viewer that got into the screen hub before joining failed (its screen would not start) leaves
      // it: left there, it would hold the session for the watchdog with no socket behind it.
      await this.deps.hub.leave(this.sessionId, this.viewerId).catch(() => undefined);
      if (err instanceof AppError) closeWith(this.socket, err);
      else {
        this.request.log.warn({ err, sessionId: this.sessionId }, 'viewer connection failed');
        closeWith(this.socket, new AppError('INTERNAL_ERROR', 'The viewer could not be connected'));
      }
    });
  }

  private parse(data: RawData): ClientMessage | null {
    try {
      return ClientMessage.parse(JSON.parse(data.toString()));
    } catch {
      this.socket.send(JSON.stringify({ type: 'error', code: 'BAD_REQUEST', message: 'Unknown or malformed message' }));
      return null;
    }
  }

  private firstMessage(): Promise<ClientMessage | null> {
    return new Promise<ClientMessage | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), AUTH_TIMEOUT_MS);
      const take = (data: RawData) => {
        clearTimeout(timer);
        this.deliver = null;
        resolve(this.parse(data));
      };
      const queued = this.inbox.shift();
      if (queued) take(queued);
      else this.deliver = take;
    });
  }

  /** The viewer: signed in by the upgrade's token, or by a first `auth` message. */
  private async signIn(): Promise<{ principal: Principal; workspace: ActiveWorkspace | null }> {
    if (this.request.principal) return { principal: this.request.principal, workspace: this.request.workspace ?? null };
    const first = await this.firstMessage();
    if (!first || first.type !== 'auth') throw new AppError('UNAUTHORIZED', 'Send {"type":"auth","token":"..."} first, or connect with a token');
    return this.deps.authenticate(first.token, first.workspaceId ?? null);
  }

  private async open(): Promise<void> {
    const { platform, hub, sharing } = this.deps;
    const { principal, workspace } = await this.signIn();
    const keys = await this.deps.permissionsOf(principal, workspace);
    // The owner, a session manager of its workspace, or a user an accepted invitation names (docs/modules/device-testing.md, "Sharing").
    const { session, access, via } = await sessionViewerAccess(platform.db, principal, workspace, keys, this.sessionId);
    if (session.status !== 'active') throw new AppError('SESSION_NOT_ACTIVE', `The session is ${session.status}`);
    await this.join(session, principal.userId, access);
    // Who watched, from where, is audit history; a failed record does not cut the viewer off.
    await sharing.viewerJoined(session, principal.userId, access).catch((err: unknown) => this.request.log.warn({ err, sessionId: this.sessionId }, 'recording the viewer failed'));
    if (this.socket.readyState !== this.socket.OPEN) {
      await hub.leave(this.sessionId, this.viewerId);
      return;
    }
    // An invitee disconnected (or whose invitation was revoked) while joining is not let in by the race.
    if (via === 'invitation') {
      const still = await sessionViewerAccess(platform.db, principal, workspace, keys, this.sessionId).catch(() => null);
      if (still?.access !== access) {
        await hub.leave(this.sessionId, this.viewerId);
        throw new AppError('SESSION_ACCESS_WITHDRAWN', 'Your access to this session ended while connecting');
      }
    }
    this.listen({ principal, keys, session, canControl: access === 'control' });
  }

  /** Says hello and joins the session's screen: frames and presence from now on. */
  private async join(session: SessionRecord, userId: number, access: 'view' | 'control'): Promise<void> {
    const { platform, hub } = this.deps;
    const socket = this.socket;
    const name = await userName(platform.db, session.companyId, userId);
    const sender = new FrameSender(socket);
    socket.send(JSON.stringify({ type: 'hello', sessionId: this.sessionId, viewerId: this.viewerId, userId, access, canControl: access === 'control', screen: session.screen }));
    // A viewer holds the session from now on: once no viewer is left and no command comes, the watchdog ends it.
    await this.deps.sessions.holders?.claim(this.sessionId, 'viewer').catch(() => undefined);
    await hub.join({ hostId: session.hostId, deviceId: session.deviceId, sessionId: this.sessionId }, session.companyId, {
      id: this.viewerId,
      userId,
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
    this.joined = true;
  }

  /** Takes the viewer's messages, the queued ones first; they run one after another, in the order the viewer sent them. */
  private listen(viewer: Admitted): void {
    let chain = Promise.resolve();
    const handle = (data: RawData) => {
      const message = this.parse(data);
      if (!message) return;
      chain = chain.then(() =>
        this.onMessage(message, viewer).catch((err: unknown) => {
          const e = err instanceof AppError ? err : new AppError('INTERNAL_ERROR', 'The input failed');
          if (!(err instanceof AppError)) this.request.log.warn({ err, sessionId: this.sessionId }, 'viewer input failed');
          if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify({ type: 'error', ...(message.type === 'input' && message.id ? { id: message.id } : {}), code: e.code, message: e.message }));
        }),
      );
    };
    for (const data of this.inbox.splice(0)) handle(data);
    this.deliver = handle;
  }

  private async onMessage(message: ClientMessage, viewer: Admitted): Promise<void> {
    const { sessions } = this.deps;
    const scope = { companyId: viewer.session.companyId, workspaceId: viewer.session.workspaceId };
    switch (message.type) {
      case 'ping':
        this.socket.send(JSON.stringify({ type: 'pong' }));
        return;
      case 'auth':
        return;
      case 'terminal.open':
        return this.openTerminal(message, viewer);
      case 'terminal.input':
        if (!this.terminal) throw new AppError('CONFLICT', 'Open a terminal first ({"type":"terminal.open"})');
        this.terminal.input(message.data);
        return;
      case 'terminal.resize':
        if (!this.terminal) throw new AppError('CONFLICT', 'Open a terminal first ({"type":"terminal.open"})');
        this.terminal.resize(message.cols, message.rows);
        return;
      case 'terminal.close':
        this.terminal?.close();
        return;
      case 'input': {
        if (!viewer.canControl) throw new AppError('FORBIDDEN', 'View-only access: you may watch this session but not send input to its device');
        const current = await sessions.get(scope, this.sessionId);
        const result = await sessions.control(current, { userId: viewer.principal.userId, ...scope }, message.action, 'viewer');
        this.socket.send(JSON.stringify({ type: 'ack', ...(message.id ? { id: message.id } : {}), action: message.action.action, ...result }));
        return;
      }
      default:
        return unreachable(message);
    }
  }

  private async openTerminal(message: Extract<ClientMessage, { type: 'terminal.open' }>, viewer: Admitted): Promise<void> {
    const { sessions, debug } = this.deps;
    if (this.terminal) throw new AppError('CONFLICT', 'A terminal is already open on this connection');
    if (!viewer.canControl || !viewer.keys.has('df:debug:use')) throw new AppError('FORBIDDEN', 'A terminal needs control of the session and df:debug:use');
    const current = await sessions.get({ companyId: viewer.session.companyId, workspaceId: viewer.session.workspaceId }, this.sessionId);
    await debug.requireGrant(current, viewer.principal.userId, 'adb');
    this.terminal = await openTerminal(debug, current, viewer.principal.userId, this.socket, { cols: message.cols ?? 80, rows: message.rows ?? 24 }, () => {
      this.terminal = null;
    });
  }
}
