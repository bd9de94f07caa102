import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { WebSocket, WebSocketServer } from 'ws';
import { z } from 'zod';
import { DebugProtocolName } from '#events/df/sessions.js';
import { sessionById } from '#projections/df-sessions/index.js';
import { AppError } from '#shared/errors.js';
import { relayWebSocketToStream } from '#shared/http/ws-relay.js';
import type { Platform } from '../../platform.js';
import { idParam } from '../http.js';
import { debugAccess } from '../core/session-access.js';
import { CLOSE_SESSION_ENDED, TARGET_OF, type DebugService } from './service.js';

const tags = ['Device testing: debugging'];
const Params = z.object({ sessionId: idParam });
const TunnelParams = z.object({
  sessionId: idParam,
  protocol: DebugProtocolName,
  target: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,200}$/, 'a pid, a port or a socket name')
    .optional(),
});

const Capabilities = z
  .object({
    platform: z.string(),
    protocols: z.array(z.object({ name: DebugProtocolName, available: z.boolean(), granted: z.boolean() })),
  })
  .meta({ id: 'DfDebugCapabilities' });
const Target = z
  .object({
    id: z.string(),
    kind: z.enum(['process', 'webview', 'page', 'device']),
    title: z.string(),
    pid: z.number().int().optional(),
    package: z.string().optional(),
    protocol: DebugProtocolName,
    tunnelPath: z.string(),
  })
  .meta({ id: 'DfDebugTarget' });

const isUpgrade = (raw: IncomingMessage) => (raw.headers.upgrade ?? '').toLowerCase() === 'websocket';

/** The `ws-head` bytes `@fastify/websocket` kept of the upgrade (almost always empty). */
function upgradeHead(raw: IncomingMessage): Buffer {
  const key = Object.getOwnPropertySymbols(raw).find((s) => s.description === 'ws-head');
  const head = key ? (raw as unknown as Record<symbol, unknown>)[key] : undefined;
  return Buffer.isBuffer(head) ? head : Buffer.alloc(0);
}

/**
 * Debugging (docs/modules/debugging.md): capabilities and grants, targets,
 * and `/df/debug-tunnel/{sessionId}/{protocol}[/{target}]`, a WebSocket that carries one TCP stream to
 * the device end as binary messages, relayed through the agent's data plane.
 */
export async function debugRoutes(app: FastifyInstance, opts: { platform: Platform; debug: DebugService }): Promise<void> {
  const { platform, debug } = opts;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 16 * 1024 * 1024 });
  app.addHook('preClose', async () => {
    debug.closeAll();
    wss.close();
  });

  typed.get('/api/sessions/:sessionId/debug-capabilities', {
    schema: { tags, summary: 'What debugging the session\'s device offers, and what the caller was granted', params: Params, response: { 200: Capabilities } },
    handler: async (request) => {
      const { session, caller } = await debugAccess(platform, request, request.params.sessionId);
      return debug.capabilities(session, caller.userId);
    },
  });

  typed.post('/api/sessions/:sessionId/debug-capabilities', {
    schema: {
      tags,
      summary: 'Request debug access over protocols (recorded on the timeline and in the audit history)',
      params: Params,
      body: z.object({ protocols: z.array(DebugProtocolName).min(1).max(7) }).strict(),
      response: { 200: Capabilities },
    },
    handler: async (request) => {
      const { session, caller } = await debugAccess(platform, request, request.params.sessionId);
      return debug.grant(session, caller, request.body.protocols);
    },
  });

  typed.delete('/api/sessions/:sessionId/debug-capabilities', {
    schema: {
      tags,
      summary: 'Withdraw debug access (the caller\'s own, or another user\'s for the session\'s owner and session managers); open tunnels close at once',
      params: Params,
      querystring: z.object({
        protocol: z.union([DebugProtocolName, z.array(DebugProtocolName)]).optional(),
        userId: z.coerce.number().int().positive().optional(),
      }),
      response: { 204: z.null() },
    },
    handler: async (request, reply) => {
      const { session, caller, manager } = await debugAccess(platform, request, request.params.sessionId);
      const userId = request.query.userId ?? caller.userId;
      if (userId !== caller.userId && !manager) throw new AppError('FORBIDDEN', 'Only the session\'s owner or a session manager may withdraw another user\'s debug access');
      const protocol = request.query.protocol;
      await debug.withdraw(session, caller, userId, protocol === undefined ? null : Array.isArray(protocol) ? protocol : [protocol]);
      return reply.code(204).send(null);
    },
  });

  typed.get('/api/sessions/:sessionId/debug-targets', {
    schema: { tags, summary: 'What a debugger can attach to on the session\'s device', params: Params, response: { 200: z.object({ targets: z.array(Target) }) } },
    handler: async (request) => {
      const { session } = await debugAccess(platform, request, request.params.sessionId);
      return { targets: await debug.targets(session) };
    },
  });

  const tunnel = async (request: FastifyRequest, reply: FastifyReply) => {
    const { sessionId, protocol, target } = request.params as z.infer<typeof TunnelParams>;
    if (!isUpgrade(request.raw)) throw new AppError('BAD_REQUEST', 'The debug tunnel is a WebSocket: connect with an Upgrade request');
    const shape = TARGET_OF[protocol];
    if (shape === 'none' && target !== undefined) throw new AppError('BAD_REQUEST', `${protocol} takes no target`);
    if (shape === 'required' && target === undefined) throw new AppError('BAD_REQUEST', `${protocol} needs a target (${protocol === 'jdwp' ? 'a process id' : 'a device port'})`);
    const { session, caller } = await debugAccess(platform, request, sessionId);
    await debug.requireGrant(session, caller.userId, protocol);
    let client: WebSocket | null = null;
    let stream: Duplex | null = null;
    const socket = request.raw.socket as Socket;
    const closeClient = (code: number, reason: string) => {
      if (client && client.readyState === WebSocket.OPEN) client.close(code, reason);
      else if (client) client.terminate();
      else socket.destroy();
      stream?.destroy();
    };
    const opened = await debug.connectStream(session, caller.userId, protocol, `/stream/${protocol}${target === undefined ? '' : `/${encodeURIComponent(target)}`}`, (code, reason) => closeClient(code, reason));
    stream = opened.stream;
    if (socket.destroyed) {
      opened.untrack();
      stream.destroy();
      return;
    }
    // Hold what the device sends until the client's socket is accepted and joined.
    stream.pause();
    reply.hijack();
    wss.handleUpgrade(request.raw, socket, upgradeHead(request.raw), (ws) => {
      client = ws;
      // The device end went away: because the session ended (4409), or the stream simply finished (1000).
      const closeFor = async () => ((await sessionById(platform.db, sessionId))?.status === 'active' ? { code: 1000, reason: 'stream closed' } : { code: CLOSE_SESSION_ENDED, reason: 'session ended' });
      relayWebSocketToStream(ws, opened.stream, () => opened.untrack(), closeFor);
      opened.stream.resume();
      request.log.info({ sessionId, protocol, target }, 'debug tunnel opened');
    });
  };
  const tunnelSchema = {
    tags,
    summary: 'Debug tunnel: one TCP stream to the device end of a protocol, as binary WebSocket messages',
    description:
      'A WebSocket. `adb`: the device\'s whole adbd transport (point an adb server at it: `dfctl adb`); `jdwp/{pid}`; `tcp_forward/{port}`; `cdp[/{socket}]`. ' +
      'Needs the protocol granted (`POST .../debug-capabilities`); refused with 403 `DEBUG_NOT_GRANTED` otherwise. Closed with 4409 when the session ends and 4403 when access is withdrawn.',
    params: TunnelParams,
  };
  typed.get('/debug-tunnel/:sessionId/:protocol', { schema: tunnelSchema, handler: tunnel });
  typed.get('/debug-tunnel/:sessionId/:protocol/:target', { schema: tunnelSchema, handler: tunnel });
}
