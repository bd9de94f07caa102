import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { WebSocketServer } from 'ws';
import { z } from 'zod';
import { MAX_CDP_PAYLOAD_BYTES } from '#shared/http/ws-relay.js';
import { AppError } from '#shared/errors.js';
import type { Platform } from '../../platform.js';
import type { DataPlane, DataPlaneTarget } from '../core/data-plane.js';
import { idParam } from '../http.js';
import { debugAccess } from '../core/session-access.js';
import { proxyHttp, relayUpgrade } from './proxy.js';
import { closeRelay, relayRegistry } from './relays.js';

const Params = z.object({ sessionId: idParam, '*': z.string().max(2_000) });

const isUpgrade = (raw: IncomingMessage) => (raw.headers.upgrade ?? '').toLowerCase() === 'websocket';

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
  const relays = relayRegistry(platform.db);
  // Served under `/df` the gateway is this process; on the module's own server (split deployment) the
  // gateway's X-Forwarded-Host / -Proto name the address the client used.
  const behindGateway = app.prefix === '';

  app.addHook('preClose', async () => {
    relays.closeAll((r) => closeRelay(r, 1001, 'server shutting down'));
    wss.close();
  });

  /** The session (debugged as the debug tunnel is: control of it and `df:debug:use`) and a data-plane target for its device. */
  const authorize = async (request: FastifyRequest, sessionId: string): Promise<DataPlaneTarget> => {
    const { session } = await debugAccess(platform, request, sessionId);
    if (session.status !== 'active') throw new AppError('SESSION_NOT_ACTIVE', `The session is ${session.status}`);
    return dataPlane.target(sessionId, 'devtools');
  };

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const params = request.params as z.infer<typeof Params>;
    const call = { request, reply, sessionId: params.sessionId, rest: params['*'].replace(/\/+$/, ''), target: await authorize(request, params.sessionId) };
    if (isUpgrade(request.raw)) return relayUpgrade(call, wss, relays);
    return proxyHttp(call, behindGateway);
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
