import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { DeviceDriver } from '../provider.js';
import { MAX_CDP_PAYLOAD_BYTES, relayWebSockets } from '#shared/http/ws-relay.js';
import { DataPlaneRefusal, type DataPlaneRoute } from './server.js';

const UPSTREAM_TIMEOUT_MS = 10_000;
/** Headers of the caller's hop; Chromium gets its own `Host` (it answers only to an IP or localhost). */
const HOP_HEADERS = new Set(['host', 'connection', 'upgrade', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'authorization', 'origin']);

/**
 * `/devices/{deviceId}/devtools/**` on the data plane: the device's Chrome DevTools endpoint (the
 * browser device's own Chromium; later Chrome on Android through `adb forward`). HTTP (`/json/*`)
 * is passed through as Chromium answers it; WebSockets (`/devtools/browser|page/<id>`) are relayed
 * frame by frame with back-pressure. URLs in the answers are rewritten by the service, which knows
 * the address the client used.
 */
export function devtoolsRoute(driverOf: (deviceId: string) => DeviceDriver | undefined): DataPlaneRoute {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: MAX_CDP_PAYLOAD_BYTES });

  const endpointOf = async (deviceId: string) => {
    const driver = driverOf(deviceId);
    if (!driver) throw new DataPlaneRefusal(404, 'NOT_FOUND', 'No such device on this host');
    if (!driver.devtools) throw new DataPlaneRefusal(501, 'UNSUPPORTED', 'This device has no DevTools endpoint');
    const endpoint = await driver.devtools();
    if (!endpoint) throw new DataPlaneRefusal(409, 'NOT_PREPARED', 'The device has no running DevTools target');
    return endpoint;
  };

  const headersOf = (req: IncomingMessage) => {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || HOP_HEADERS.has(name) || name.startsWith('sec-websocket-') || name.startsWith('x-forwarded-')) continue;
      out[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    return out;
  };

  return {
    prefix: '/devtools',
    scope: 'devtools',

    async http(req, res, rest, claims) {
      const { host, port } = await endpointOf(claims.deviceId);
      await new Promise<void>((resolve, reject) => {
        const upstream = httpRequest(
          { host, port, method: req.method, path: rest || '/', headers: { ...headersOf(req), host: `${host}:${port}` }, timeout: UPSTREAM_TIMEOUT_MS },
          (answer) => {
            const headers = { ...answer.headers };
            delete headers.connection;
            delete headers['keep-alive'];
            res.writeHead(answer.statusCode ?? 502, headers);
            answer.pipe(res);
            answer.on('end', resolve);
            answer.on('error', reject);
          },
        );
        upstream.on('timeout', () => upstream.destroy(new Error('DevTools did not answer in time')));
        upstream.on('error', (err) => reject(new DataPlaneRefusal(502, 'DEVICE_ERROR', `DevTools is not reachable: ${err.message}`)));
        res.on('close', () => upstream.destroy());
        req.pipe(upstream);
      });
    },

    async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, rest: string, claims) {
      if (!rest.startsWith('/devtools/')) throw new DataPlaneRefusal(404, 'NOT_FOUND', 'DevTools WebSockets are under /devtools/');
      const { host, port } = await endpointOf(claims.deviceId);
      const upstream = new WebSocket(`ws://${host}:${port}${rest}`, {
        headers: headersOf(req),
        perMessageDeflate: false,
        maxPayload: MAX_CDP_PAYLOAD_BYTES,
        handshakeTimeout: UPSTREAM_TIMEOUT_MS,
        followRedirects: false,
      });
      await new Promise<void>((resolve, reject) => {
        const giveUp = () => upstream.terminate();
        socket.once('close', giveUp);
        upstream.once('unexpected-response', (_r, answer) => {
          answer.resume();
          upstream.terminate();
          reject(new DataPlaneRefusal(answer.statusCode === 404 ? 404 : 502, answer.statusCode === 404 ? 'NOT_FOUND' : 'DEVICE_ERROR', `DevTools refused the WebSocket (${answer.statusCode})`));
        });
        upstream.once('error', (err) => reject(new DataPlaneRefusal(502, 'DEVICE_ERROR', `DevTools is not reachable: ${err.message}`)));
        upstream.once('open', () => {
          socket.off('close', giveUp);
          if (socket.destroyed) {
            upstream.terminate();
            resolve();
            return;
          }
          // Hold what Chromium sends until the caller's socket is accepted and joined.
          upstream.pause();
          wss.handleUpgrade(req, socket, head, (client) => {
            relayWebSockets(client, upstream);
            upstream.resume();
            resolve();
          });
        });
      });
    },
  };
}
