import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket } from 'ws';
import { upstreamOpened } from '#shared/http/ws-relay.js';
import { OpenByKey } from '#shared/open-by-key.js';
import { debugGrantsOf, sessionById, type SessionRecord } from '#projections/df-sessions/index.js';
import { platformOfDevice } from '#projections/df-devices/index.js';
import type { DebugProtocolName } from '#events/df/sessions.js';
import { AppError } from '#shared/errors.js';
import type { Platform } from '../../platform.js';
import type { DataPlane, DataPlaneTarget } from '../core/data-plane.js';
import type { Caller } from '../http.js';
import type { SessionPort } from '../core/session-port.js';

/** The debug protocols of each platform. */
export const PLATFORM_PROTOCOLS: Record<string, readonly DebugProtocolName[]> = {
  android: ['adb', 'jdwp', 'tcp_forward', 'cdp'],
  ios: ['usbmux', 'tcp_forward', 'lldb_rsp', 'webkit_inspector', 'cdp'],
  web: ['cdp'],
};

/** Which protocols take a target in the tunnel's path, and what it is. */
export const TARGET_OF: Record<DebugProtocolName, 'none' | 'optional' | 'required'> = {
  adb: 'none',
  jdwp: 'required',
  tcp_forward: 'required',
  cdp: 'optional',
  usbmux: 'none',
  lldb_rsp: 'none',
  webkit_inspector: 'optional',
};

export interface DebugCapabilities {
  platform: string;
  protocols: { name: DebugProtocolName; available: boolean; granted: boolean }[];
}

export interface DebugTargetView {
  id: string;
  kind: 'process' | 'webview' | 'page' | 'device';
  title: string;
  pid?: number;
  package?: string;
  protocol: DebugProtocolName;
  tunnelPath: string;
}

/** An open tunnel or terminal, closed when its session ends or its user's grant goes. */
interface OpenStream {
  userId: number;
  protocol: DebugProtocolName;
  close(code: number, reason: string): void;
}

/** How long the agent may take to answer a debug request or open a stream. */
const AGENT_TIMEOUT_MS = 15_000;
/** How often sessions with open streams are checked (ended sessions, grants withdrawn on another replica). */
const SWEEP_MS = 5_000;
/** Streams one session may hold open at once (an adb server opens one per `adb connect`). */
export const MAX_STREAMS_PER_SESSION = 256;
/** Close codes of a tunnel: 4000 + the HTTP status the same refusal would have. */
export const CLOSE_SESSION_ENDED = 4409;
export const CLOSE_ACCESS_WITHDRAWN = 4403;

/** What an agent's refusal means to the caller. */
export function agentRefusal(status: number, body: string): AppError {
  let code = '';
  let message = '';
  try {
    const parsed = JSON.parse(body) as { code?: unknown; message?: unknown };
    code = String(parsed.code ?? '');
    message = String(parsed.message ?? '').slice(0, 300);
  } catch {
    // Not JSON: the status alone decides.
  }
  if (status === 400) return new AppError('BAD_REQUEST', message || 'The device refused the target');
  if (status === 404) return new AppError('NOT_FOUND', message || 'No such debug target');
  if (status === 403 || code === 'NOT_PREPARED') return new AppError('SESSION_NOT_ACTIVE', 'The device is no longer in this session');
  if (status === 501 || code === 'UNSUPPORTED') return new AppError('DEBUG_PROTOCOL_UNAVAILABLE', message || 'The device does not offer this protocol');
  if (status === 401 || status === 503) return new AppError('DEVICE_UNREACHABLE', 'The device\'s host did not accept the connection');
  return new AppError('DEVICE_COMMAND_FAILED', message || `The device answered ${status}`);
}

/**
 * Remote debugging of sessions: which protocols a session's device offers and who was granted which
 * (events on the session's stream, so the timeline and the audit history show them), what can be
 * attached, and the streams (tunnels, terminals) opened through the agent's data plane — each closed
 * when its session ends or its user's access over that protocol is withdrawn.
 */
export class DebugService {
  /** Open streams by session, checked every few seconds while any is open. */
  private readonly open = new OpenByKey<OpenStream>(SWEEP_MS, (sessionId, streams) => this.checkStreams(sessionId, streams));

  constructor(
    private readonly platform: Platform,
    private readonly sessions: SessionPort,
    private readonly dataPlane: DataPlane,
  ) {}

  /** Protocols of the session's platform, with what the device offers now and what the user holds. */
  async capabilities(session: SessionRecord, userId: number, offeredNow?: Set<DebugProtocolName>): Promise<DebugCapabilities> {
    const platform = await this.platformOf(session);
    const known = PLATFORM_PROTOCOLS[platform] ?? [];
    const [offered, granted] = await Promise.all([offeredNow ?? this.offered(session), debugGrantsOf(this.platform.db, session.id, userId)]);
    return { platform, protocols: known.map((name) => ({ name, available: offered.has(name), granted: granted.includes(name) })) };
  }

  /** Grants the caller the protocols (each must be available now). */
  async grant(session: SessionRecord, caller: Caller, protocols: DebugProtocolName[]): Promise<DebugCapabilities> {
    if (session.status !== 'active') throw new AppError('SESSION_NOT_ACTIVE', `The session is ${session.status}`);
    const offered = await this.offered(session);
    const missing = protocols.filter((p) => !offered.has(p));
    if (missing.length > 0) throw new AppError('DEBUG_PROTOCOL_UNAVAILABLE', `The device does not offer ${missing.join(', ')} right now`);
    await this.sessions.changeDebugAccess(session, caller, caller.userId, protocols, true);
    // What the device offers was asked a moment ago; the agent is not asked twice.
    return this.capabilities(session, caller.userId, offered);
  }

  /** Withdraws a user's access over the protocols (all when none are named) and closes their open streams at once. */
  async withdraw(session: SessionRecord, caller: Caller, userId: number, protocols: DebugProtocolName[] | null): Promise<void> {
    const held = (await debugGrantsOf(this.platform.db, session.id, userId)) as DebugProtocolName[];
    const names = protocols ?? held;
    if (names.length > 0) await this.sessions.changeDebugAccess(session, caller, userId, names, false);
    for (const s of [...this.open.of(session.id)]) {
      if (s.userId === userId && names.includes(s.protocol)) s.close(CLOSE_ACCESS_WITHDRAWN, 'debug access withdrawn');
    }
  }

  /** Refuses unless the user holds `protocol` on the active session. */
  async requireGrant(session: SessionRecord, userId: number, protocol: DebugProtocolName): Promise<void> {
    if (session.status !== 'active') throw new AppError('SESSION_NOT_ACTIVE', `The session is ${session.status}`);
    const granted = await debugGrantsOf(this.platform.db, session.id, userId);
    if (!granted.includes(protocol)) {
      throw new AppError('DEBUG_NOT_GRANTED', `Request ${protocol} first: POST /df/api/sessions/${session.id}/debug-capabilities {"protocols":["${protocol}"]}`);
    }
    if (this.open.of(session.id).size >= MAX_STREAMS_PER_SESSION) {
      throw new AppError('TOO_MANY_REQUESTS', `A session may hold ${MAX_STREAMS_PER_SESSION} debug streams at once`);
    }
  }

  /** What can be attached on the session's device, each with the tunnel path that reaches it. */
  async targets(session: SessionRecord): Promise<DebugTargetView[]> {
    if (session.status !== 'active') throw new AppError('SESSION_NOT_ACTIVE', `The session is ${session.status}`);
    const body = (await this.agentGet(session, '/targets')) as { targets?: unknown };
    const raw = Array.isArray(body.targets) ? (body.targets as Record<string, unknown>[]) : [];
    const out: DebugTargetView[] = [];
    for (const t of raw) {
      const protocol = String(t.protocol) as DebugProtocolName;
      if (!(protocol in TARGET_OF) || typeof t.id !== 'string' || typeof t.title !== 'string') continue;
      const kind = (['process', 'webview', 'page', 'device'] as const).find((k) => k === t.kind) ?? 'device';
      const base = `/df/debug-tunnel/${session.id}/${protocol}`;
      const tunnelPath = TARGET_OF[protocol] === 'none' || (kind === 'device' && TARGET_OF[protocol] !== 'required') ? base : `${base}/${encodeURIComponent(t.id)}`;
      out.push({
        id: t.id,
        kind,
        title: t.title.slice(0, 300),
        ...(typeof t.pid === 'number' ? { pid: t.pid } : {}),
        ...(typeof t.package === 'string' ? { package: t.package } : {}),
        protocol,
        tunnelPath,
      });
    }
    return out;
  }

  /**
   * Opens a WebSocket to the agent for one debug stream (`/stream/{protocol}[/{target}]`) or a
   * terminal (`/terminal?cols=&rows=`), after the caller's grant was checked. It is tracked: the
   * returned `untrack` must run when the relay ends.
   */
  async connect(session: SessionRecord, userId: number, protocol: DebugProtocolName, path: string, close: (code: number, reason: string) => void): Promise<{ upstream: WebSocket; untrack: () => void }> {
    const target = await this.dataPlane.target(session.id, 'debug');
    const url = new URL(`${target.baseUrl}/debug${path}`);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const upstream = new WebSocket(url, {
      headers: { authorization: `Bearer ${target.token}` },
      perMessageDeflate: false,
      maxPayload: 16 * 1024 * 1024,
      handshakeTimeout: AGENT_TIMEOUT_MS,
      followRedirects: false,
      // Masking guards browsers' intermediaries; on the gateway's own hop to the agent it only costs a
      // pass over every byte on both ends, so the mask is zero (ws then skips it).
      generateMask: (mask: Buffer) => void mask.fill(0),
    });
    const entry: OpenStream = { userId, protocol, close };
    const untrack = this.open.track(session.id, entry);
    try {
      await upstreamOpened(upstream, agentRefusal, (err) => new AppError('DEVICE_UNREACHABLE', 'The device\'s host could not be reached', { cause: err }));
    } catch (err) {
      untrack();
      upstream.terminate();
      throw err;
    }
    return { upstream, untrack };
  }

  /**
   * Opens one debug stream on the agent as a raw connection (HTTP upgrade to `df-stream`: after the 101
   * the socket carries the stream's bytes, no framing on this hop), tracked like `connect`'s.
   */
  async connectStream(session: SessionRecord, userId: number, protocol: DebugProtocolName, path: string, close: (code: number, reason: string) => void): Promise<{ stream: Duplex; untrack: () => void }> {
    const target = await this.dataPlane.target(session.id, 'debug');
    const url = new URL(`${target.baseUrl}/debug${path}`);
    const untrack = this.open.track(session.id, { userId, protocol, close });
    try {
      const stream = await new Promise<Duplex>((resolve, reject) => {
        const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
          headers: { authorization: `Bearer ${target.token}`, connection: 'Upgrade', upgrade: 'df-stream' },
          timeout: AGENT_TIMEOUT_MS,
        });
        request.once('upgrade', (_res, socket, head) => {
          socket.setTimeout(0);
          (socket as Socket).setNoDelay?.(true);
          if (head.length > 0) socket.unshift(head);
          resolve(socket);
        });
        request.once('response', (answer) => {
          let body = '';
          const refused = () => reject(agentRefusal(answer.statusCode ?? 502, body));
          answer.setEncoding('utf8');
          answer.on('data', (chunk: string) => {
            if (body.length < 16_384) body += chunk;
          });
          answer.on('end', refused).on('error', refused);
        });
        request.once('timeout', () => request.destroy(new Error('The agent did not answer in time')));
        request.once('error', (err) => reject(new AppError('DEVICE_UNREACHABLE', 'The device\'s host could not be reached', { cause: err })));
        request.end();
      });
      return { stream, untrack };
    } catch (err) {
      untrack();
      throw err;
    }
  }

  /** Closes every open stream (the server is stopping). */
  closeAll(): void {
    this.open.closeAll((s) => s.close(1001, 'server shutting down'));
  }

  /** Open streams of a session (diagnostics and tests). */
  openStreams(sessionId: string): number {
    return this.open.of(sessionId).size;
  }

  /** Closes the streams of an ended session, and those whose user's grant went (on another replica too). */
  private async checkStreams(sessionId: string, streams: ReadonlySet<OpenStream>): Promise<void> {
    const session = await sessionById(this.platform.db, sessionId).catch(() => undefined);
    if (session === undefined) return;
    if (!session || session.status !== 'active') {
      for (const s of [...streams]) s.close(CLOSE_SESSION_ENDED, 'session ended');
      return;
    }
    const byUser = new Map<number, string[]>();
    for (const s of [...streams]) {
      if (!byUser.has(s.userId)) byUser.set(s.userId, await debugGrantsOf(this.platform.db, sessionId, s.userId).catch(() => [s.protocol]));
      if (!byUser.get(s.userId)!.includes(s.protocol)) s.close(CLOSE_ACCESS_WITHDRAWN, 'debug access withdrawn');
    }
  }

  /** The device's platform, from the device read model. */
  private async platformOf(session: SessionRecord): Promise<string> {
    return (await platformOfDevice(this.platform.db, session.deviceId)) ?? 'web';
  }

  /** Protocols the device offers now (none when the session is not active or its host is unreachable). */
  private async offered(session: SessionRecord): Promise<Set<DebugProtocolName>> {
    if (session.status !== 'active') return new Set();
    try {
      const body = (await this.agentGet(session, '/protocols')) as { protocols?: unknown };
      return new Set((Array.isArray(body.protocols) ? body.protocols : []).filter((p): p is DebugProtocolName => typeof p === 'string' && p in TARGET_OF));
    } catch (err) {
      if (err instanceof AppError && (err.code === 'DEVICE_UNREACHABLE' || err.code === 'SESSION_NOT_ACTIVE')) return new Set();
      throw err;
    }
  }

  private async agentGet(session: SessionRecord, path: string): Promise<unknown> {
    const target: DataPlaneTarget = await this.dataPlane.target(session.id, 'debug');
    let answer: Response;
    try {
      answer = await fetch(`${target.baseUrl}/debug${path}`, { headers: { authorization: `Bearer ${target.token}` }, signal: AbortSignal.timeout(AGENT_TIMEOUT_MS) });
    } catch (err) {
      throw new AppError('DEVICE_UNREACHABLE', 'The device\'s host could not be reached', { cause: err });
    }
    const text = await answer.text();
    if (!answer.ok) throw agentRefusal(answer.status, text);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new AppError('DEVICE_COMMAND_FAILED', 'The device\'s host answered malformed JSON');
    }
  }
}
