import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Duplex } from 'node:stream';
import type { DaemonStream } from './daemons.js';

/*
 * The device side of Appium's UiAutomator2 server as the test device runs it: started by
 * `am instrument -w ... io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner`
 * once both of its packages are installed, it answers HTTP on device port 6790 (reached through
 * `tcp:6790` streams) with the endpoints a touch client uses, at the server's root as Appium's driver
 * calls them: `GET /status`, `POST /session`, `POST /session/{id}/actions` (W3C actions, recorded as
 * they came), `DELETE /session/{id}`. A new session replaces the one before, as the real server does.
 */

export const UIA2_SERVER_PACKAGE = 'io.appium.uiautomator2.server';
export const UIA2_TEST_PACKAGE = 'io.appium.uiautomator2.server.test';
export const UIA2_DEVICE_PORT = 6790;

/** One W3C pointer input source as the server received it. */
export interface PointerSource {
  type: string;
  id: string;
  parameters?: { pointerType?: string };
  actions: { type: string; duration?: number; x?: number; y?: number; button?: number }[];
}

export interface ActionsReceived {
  sessionId: string;
  actions: PointerSource[];
}

export class UiAutomator2ServerPeer {
  private readonly http: Server;
  private sessionId: string | null = null;
  private readonly connections = new Set<Duplex>();

  constructor(
    readonly pid: number,
    private readonly onActions: (received: ActionsReceived) => void,
  ) {
    this.http = createServer((req, res) => void this.handle(req, res));
  }

  /** One `tcp:6790` stream: an HTTP connection (kept alive for as many requests as the client sends). */
  serve(stream: DaemonStream): void {
    const socket = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, done) {
        stream.write(chunk);
        done();
      },
      // An answer's head and body leave in one adb packet, as one send() of a real server would.
      writev(chunks, done) {
        stream.write(Buffer.concat(chunks.map((c) => c.chunk as Buffer)));
        done();
      },
      final(done) {
        stream.close();
        done();
      },
      destroy(err, done) {
        stream.close();
        done(err);
      },
    });
    // What http.Server asks of a socket beyond a Duplex.
    Object.assign(socket, { setTimeout: () => socket, setNoDelay: () => socket, setKeepAlive: () => socket, remoteAddress: '127.0.0.1' });
    stream.onData((data) => socket.push(data));
    stream.onClose(() => socket.push(null));
    this.connections.add(socket);
    socket.on('close', () => this.connections.delete(socket));
    socket.on('error', () => undefined);
    this.http.emit('connection', socket);
  }

  /** The instrumentation ends: every connection closes. */
  stop(): void {
    this.sessionId = null;
    for (const c of this.connections) c.destroy();
    this.connections.clear();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Record<string, unknown> = {};
    try {
      body = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
    } catch {
      return answer(res, 400, null, { error: 'invalid argument', message: 'the body is not JSON' });
    }
    const path = (req.url ?? '/').split('?')[0]!;
    if (req.method === 'GET' && path === '/status') return answer(res, 200, 'None', { ready: true, message: 'UiAutomator2 Server is ready to accept commands' });
    if (req.method === 'POST' && path === '/session') {
      this.sessionId = randomUUID();
      return answer(res, 200, this.sessionId, { sessionId: this.sessionId, capabilities: { platformName: 'Android' } });
    }
    const m = /^\/session\/([^/]+)(\/actions)?$/.exec(path);
    if (!m) return answer(res, 404, null, { error: 'unknown command', message: `${req.method} ${path}` });
    if (m[1] !== this.sessionId) return answer(res, 404, m[1]!, { error: 'invalid session id', message: `A session is either terminated or not started (${m[1]})` });
    if (req.method === 'DELETE' && !m[2]) {
      this.sessionId = null;
      return answer(res, 200, m[1]!, null);
    }
    if (req.method === 'POST' && m[2]) {
      const actions = body.actions;
      if (!Array.isArray(actions) || !actions.every(isPointerSource)) return answer(res, 400, m[1]!, { error: 'invalid argument', message: "'actions' must be an array of pointer input sources" });
      this.onActions({ sessionId: m[1]!, actions });
      return answer(res, 200, m[1]!, null);
    }
    return answer(res, 404, m[1]!, { error: 'unknown command', message: `${req.method} ${path}` });
  }
}

function isPointerSource(value: unknown): value is PointerSource {
  const v = value as PointerSource;
  return typeof v === 'object' && v !== null && v.type === 'pointer' && typeof v.id === 'string' && Array.isArray(v.actions);
}

function answer(res: ServerResponse, status: number, sessionId: string | null, value: unknown): void {
  const data = Buffer.from(JSON.stringify({ sessionId, value }));
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': data.length });
  res.end(data);
}
