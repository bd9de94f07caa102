import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { DEBUG_PROTOCOLS, DriverError, type DebugProtocol, type DeviceDriver } from '../provider.js';
import { DataPlaneRefusal, type DataPlaneClaims, type DataPlaneRoute } from './server.js';
import { tiedToAgent } from '../child-tie.js';

/** The `Upgrade` token of a raw stream: after the 101 answer the connection carries the stream's bytes as they are. */
export const RAW_STREAM_PROTOCOL = 'df-stream';
const STREAM_PATH = /^\/stream\/([a-z_]{1,30})(?:\/([A-Za-z0-9_.:-]{1,200}))?$/;
const TERMINAL_PATH = /^\/terminal(?:\?(.*))?$/;
/** The most a terminal message may carry (input is typed; resize is tiny). */
const MAX_TERMINAL_MESSAGE = 64 * 1024;
/** A pseudo-terminal's output is paused while the socket has this much unsent. */
const TERMINAL_HIGH_WATER = 1024 * 1024;

type Pty = {
  onData(listener: (data: string) => void): { dispose(): void };
  onExit(listener: (e: { exitCode: number; signal?: number }) => void): { dispose(): void };
  write(data: string): void;
  resize(cols: number, rows: number): void;
  pause(): void;
  resume(): void;
  kill(signal?: string): void;
};
type PtyModule = { spawn(file: string, args: string[], options: { name: string; cols: number; rows: number; env: Record<string, string | undefined> }): Pty };
let ptyModule: Promise<PtyModule | null> | null = null;
/** node-pty, if it loads on this machine (a native module). */
function loadPty(): Promise<PtyModule | null> {
  ptyModule ??= import('node-pty').then(
    (m) => (m.default ?? m) as unknown as PtyModule,
    () => null,
  );
  return ptyModule;
}

const clamp = (v: unknown, min: number, max: number, fallback: number) => {
  const n = Number(v);
  return Number.isInteger(n) ? Math.min(max, Math.max(min, n)) : fallback;
};

/**
 * `/devices/{deviceId}/debug/**` on the data plane (scope `debug`): what the device offers for
 * debugging (`GET /protocols`, `GET /targets`), raw streams to its debug endpoints
 * (`/stream/{protocol}[/{target}]`, upgraded to `df-stream`: the connection itself carries the bytes), and an
 * interactive shell in a pseudo-terminal (`/terminal?cols=&rows=`: binary messages are the terminal's
 * output and the person's typing, text messages `{"type":"resize","cols","rows"}`). The service has
 * checked the session and the caller's grant before signing the token; the route checks only that the
 * protocol is the token's.
 */
export function debugRoute(driverOf: (deviceId: string) => DeviceDriver | undefined, logger: Logger): DataPlaneRoute {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 16 * 1024 * 1024 });

  const driver = (deviceId: string) => {
    const d = driverOf(deviceId);
    if (!d) throw new DataPlaneRefusal(404, 'NOT_FOUND', 'No such device on this host');
    return d;
  };
  const json = (res: ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const refusal = (err: unknown): never => {
    if (err instanceof DriverError) {
      const status = err.code === 'BAD_REQUEST' ? 400 : err.code === 'UNSUPPORTED' ? 501 : err.code === 'NOT_PREPARED' ? 409 : 502;
      throw new DataPlaneRefusal(status, err.code === 'DEVICE_ERROR' ? 'DEVICE_ERROR' : err.code, err.message);
    }
    throw err;
  };
  const accept = (req: IncomingMessage, socket: Duplex, head: Buffer) =>
    new Promise<WebSocket>((resolve) => wss.handleUpgrade(req, socket, head, (ws) => resolve(ws)));

  return {
    prefix: '/debug',
    scope: 'debug',

    async http(req, res, rest, claims) {
      if (req.method !== 'GET') throw new DataPlaneRefusal(405, 'METHOD_NOT_ALLOWED', 'Only GET');
      const d = driver(claims.deviceId);
      if (rest === '/protocols') return json(res, { protocols: d.debugProtocols ? await d.debugProtocols().catch(refusal) : [] });
      if (rest === '/targets') return json(res, { targets: d.debugTargets ? await d.debugTargets().catch(refusal) : [] });
      throw new DataPlaneRefusal(404, 'NOT_FOUND', 'No such debug resource');
    },

    async upgrade(req, socket, head, rest, claims: DataPlaneClaims) {
      const d = driver(claims.deviceId);
      const stream = STREAM_PATH.exec(rest);
      if (stream) {
        const protocol = stream[1] as DebugProtocol;
        if (!(DEBUG_PROTOCOLS as readonly string[]).includes(protocol)) throw new DataPlaneRefusal(404, 'NOT_FOUND', `No debug protocol ${protocol}`);
        if (!d.openDebugStream) throw new DataPlaneRefusal(501, 'UNSUPPORTED', 'This device offers no debug streams');
        const target = stream[2];
        if ((req.headers.upgrade ?? '').toLowerCase() !== RAW_STREAM_PROTOCOL) throw new DataPlaneRefusal(400, 'BAD_REQUEST', `Debug streams upgrade to ${RAW_STREAM_PROTOCOL}`);
        const device = await d.openDebugStream(protocol, target).catch(refusal);
        if (socket.destroyed) {
          device.destroy();
          return;
        }
        const opened = Date.now();
        const closed = (why: string) => logger.debug({ deviceId: claims.deviceId, sessionId: claims.sessionId, protocol, target, why, ms: Date.now() - opened }, 'debug stream closed');
        // After the 101 the connection is the stream itself, piped both ways.
        socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: ${RAW_STREAM_PROTOCOL}\r\nConnection: Upgrade\r\n\r\n`);
        if (head.length > 0) device.write(head);
        joinStreams(socket, device, closed);
        return;
      }
      const terminal = TERMINAL_PATH.exec(rest);
      if (terminal) {
        const command = d.shellCommand?.() ?? null;
        if (!command) throw new DataPlaneRefusal(501, 'UNSUPPORTED', 'This device offers no shell');
        const pty = await loadPty();
        if (!pty) throw new DataPlaneRefusal(501, 'UNSUPPORTED', 'Terminals need node-pty, which does not load on this host');
        const query = new URLSearchParams(terminal[1] ?? '');
        const cols = clamp(query.get('cols'), 10, 500, 80);
        const rows = clamp(query.get('rows'), 5, 300, 24);
        const ws = await accept(req, socket, head);
        // The shell dies with the agent, not left running on a pseudo-terminal nobody reads.
        const tied = tiedToAgent(command.file, command.args);
        runTerminal(ws, pty.spawn(tied.command, tied.args, { name: 'xterm-256color', cols, rows, env: { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8', TERM: 'xterm-256color' } }));
        logger.info({ deviceId: claims.deviceId, sessionId: claims.sessionId }, 'terminal opened');
        return;
      }
      throw new DataPlaneRefusal(404, 'NOT_FOUND', 'Debug WebSockets are /stream/{protocol}[/{target}] and /terminal');
    },
  };
}

/** Pipes two byte streams into each other (back-pressure by `pipe`); when either closes, both go. */
function joinStreams(a: Duplex, b: Duplex, onClose: (why: string) => void): void {
  let done = false;
  const finish = (why: string) => {
    if (done) return;
    done = true;
    onClose(why);
    a.destroy();
    b.destroy();
  };
  a.pipe(b);
  b.pipe(a);
  a.once('close', () => finish('gateway'));
  b.once('close', () => finish('device'));
  a.on('error', () => finish('gateway failed'));
  b.on('error', () => finish('device failed'));
}

/** One terminal: the pseudo-terminal's output to the socket (paused while the socket is behind), input and resizes back. */
function runTerminal(ws: WebSocket, pty: Pty): void {
  let exited = false;
  let paused = false;
  const sent = () => {
    if (paused && ws.bufferedAmount < TERMINAL_HIGH_WATER / 2) {
      paused = false;
      pty.resume();
    }
  };
  const output = pty.onData((data) => {
    if (ws.readyState !== WebSocket.OPEN) return;
    ws.send(Buffer.from(data, 'utf8'), { binary: true }, sent);
    if (!paused && ws.bufferedAmount > TERMINAL_HIGH_WATER) {
      paused = true;
      pty.pause();
    }
  });
  const exit = pty.onExit(({ exitCode }) => {
    exited = true;
    output.dispose();
    exit.dispose();
    if (ws.readyState === WebSocket.OPEN) ws.close(1000, `exited ${exitCode}`);
  });
  ws.on('message', (data: RawData, isBinary: boolean) => {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    if (bytes.length > MAX_TERMINAL_MESSAGE || exited) return;
    if (isBinary) {
      pty.write(bytes.toString('utf8'));
      return;
    }
    try {
      const message = JSON.parse(bytes.toString('utf8')) as { type?: unknown; cols?: unknown; rows?: unknown };
      if (message.type === 'resize') pty.resize(clamp(message.cols, 10, 500, 80), clamp(message.rows, 5, 300, 24));
    } catch {
      // Not a control message: ignored.
    }
  });
  ws.on('close', () => {
    if (!exited) pty.kill();
  });
}
