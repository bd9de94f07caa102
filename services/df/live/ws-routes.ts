import type { IncomingMessage } from 'node:http';
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '#shared/errors.js';
import { ViewerConnection, type ViewerSocketDeps } from './viewer-connection.js';

export { ClientMessage, type TokenAuthenticator } from './viewer-connection.js';

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
export async function viewerSocketRoutes(app: FastifyInstance, opts: ViewerSocketDeps): Promise<void> {
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
    wsHandler: (socket, request) => new ViewerConnection(socket, request, (request.params as { sessionId: string }).sessionId, opts).start(),
  });
}
