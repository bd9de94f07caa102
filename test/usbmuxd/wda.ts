import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import sharp from 'sharp';
import { clockFrame, clockFrames } from '#test/helpers/video.js';
import type { PeerDevice } from './peer.js';

/**
 * WebDriverAgent as it answers on a device port, and its MJPEG server on another: the W3C and WDA
 * endpoints the agent uses (`/status`, sessions, `/appium/settings`, W3C pointer `actions`, `/wda/keys`,
 * `/wda/homescreen`, `/wda/pressButton`, `/wda/lock`, orientation, `/url`, `/screenshot`, `/source`),
 * answering with a UI tree and recording what it was told; the MJPEG server sends a moving test
 * pattern (or, with `clock`, the wall clock as colours) at the frame rate the session set (30 a second
 * unless told otherwise), in WDA's framing.
 */

/** An element of the UI tree, in points, as WDA's `/source?format=json` answers it. */
export interface WdaElement {
  type: string;
  name: string | null;
  label: string | null;
  value: string | null;
  rect: { x: number; y: number; width: number; height: number };
  isEnabled: boolean;
  children?: WdaElement[];
}

/** What the device was told to do, in points. */
export type WdaAction =
  | { kind: 'tap'; x: number; y: number }
  | { kind: 'longPress'; x: number; y: number; durationMs: number }
  | { kind: 'swipe'; x1: number; y1: number; x2: number; y2: number; durationMs: number }
  | { kind: 'pinch'; fingers: { x1: number; y1: number; x2: number; y2: number }[]; durationMs: number }
  | { kind: 'text'; text: string }
  | { kind: 'button'; name: string }
  | { kind: 'orientation'; orientation: string }
  | { kind: 'url'; url: string };

export interface WdaPeerOptions {
  /** The screen in points and its scale (pixels per point). */
  size: { width: number; height: number; scale: number };
  tree: WdaElement;
  /** What `/screenshot` answers (PNG). */
  screenshot: Buffer;
  bundleId?: string;
  /** Pixels of the MJPEG frames (default 120x260). */
  frameSize?: { width: number; height: number };
  /**
   * Paint the wall clock (`clockFrames`, test/helpers/video.ts: the second and its tenth as colours) instead
   * of the moving bar, so a recording's frame at a chosen second can be dated.
   */
  clock?: boolean;
}

const BOUNDARY = '--BoundaryString';

export class WdaPeer extends EventEmitter {
  readonly actions: WdaAction[] = [];
  /** Settings of the current session, as the client set them. */
  readonly settings: Record<string, unknown> = {};
  readonly sessions: { id: string; ended: boolean }[] = [];
  /** `METHOD path` of every request. */
  readonly requests: string[] = [];
  framesSent = 0;
  mjpegClients = 0;
  orientation = 'PORTRAIT';
  private readonly http = createServer((req, res) => void this.handle(req, res));
  private frames: Buffer[] | null = null;

  constructor(readonly options: WdaPeerOptions) {
    super();
  }

  /** Makes the device answer WDA on `port` and MJPEG on `mjpegPort` (what a started WDA runner does). */
  install(device: PeerDevice, port = 8100, mjpegPort = 9100): void {
    device.tcpServices.set(port, (socket) => this.http.emit('connection', socket));
    device.tcpServices.set(mjpegPort, (socket) => void this.mjpeg(socket));
  }

  /** The test pattern: a bar moving down a gradient, one JPEG per position. */
  async testPattern(): Promise<Buffer[]> {
    if (this.frames) return this.frames;
    const width = this.options.frameSize?.width ?? 120;
    const height = this.options.frameSize?.height ?? 260;
    const frames: Buffer[] = [];
    for (let i = 0; i < 30; i++) {
      const pixels = Buffer.alloc(width * height * 3);
      for (let y = 0; y < height; y++) {
        const bar = Math.abs(y - ((i * height) / 30)) < 8;
        for (let x = 0; x < width; x++) {
          const p = (y * width + x) * 3;
          pixels[p] = bar ? 255 : (x * 2) & 0xff;
          pixels[p + 1] = bar ? 255 : y & 0xff;
          pixels[p + 2] = bar ? 255 : 0x60;
        }
      }
      frames.push(await sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 70 }).toBuffer());
    }
    this.frames = frames;
    return frames;
  }

  private record(action: WdaAction): void {
    this.actions.push(action);
    this.emit('action', action);
  }

  private async mjpeg(socket: Duplex): Promise<void> {
    const { width, height } = this.options.frameSize ?? { width: 120, height: 260 };
    const frames = this.options.clock ? await clockFrames(width, height) : await this.testPattern();
    socket.on('error', () => undefined);
    // Like WDA, the stream starts once the client has sent its request.
    socket.once('data', () => {
      this.mjpegClients += 1;
      socket.write(`HTTP/1.0 200 OK\r\nServer: WDA MJPEG Server\r\nConnection: close\r\nMax-Age: 0\r\nExpires: 0\r\nCache-Control: no-cache, private\r\nPragma: no-cache\r\nContent-Type: multipart/x-mixed-replace; boundary=${BOUNDARY}\r\n\r\n`);
      let i = 0;
      let blocked = false;
      let closed = false;
      let timer: NodeJS.Timeout | null = null;
      const fps = Math.min(60, Math.max(1, Number(this.settings.mjpegServerFramerate ?? 30)));
      const interval = 1000 / fps;
      // Each frame is due `interval` after the previous one was due, so the rate is the clock's, whatever a tick's delay.
      let due = performance.now();
      const tick = () => {
        if (closed) return;
        // A client that does not keep up misses frames, as on the device.
        if (!blocked) {
          const jpeg = this.options.clock ? clockFrame(frames, Date.now()) : frames[i++ % frames.length]!;
          this.framesSent += 1;
          this.emit('frame', frames.indexOf(jpeg), performance.now());
          const ok = socket.write(Buffer.concat([Buffer.from(`${BOUNDARY}\r\nContent-type: image/jpeg\r\nContent-Length: ${jpeg.length}\r\n\r\n`), jpeg, Buffer.from('\r\n\r\n')]));
          if (!ok) {
            blocked = true;
            socket.once('drain', () => (blocked = false));
          }
        }
        due += interval;
        timer = setTimeout(tick, Math.max(0, due - performance.now()));
      };
      tick();
      socket.on('close', () => {
        closed = true;
        if (timer) clearTimeout(timer);
        this.mjpegClients -= 1;
      });
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://wda');
    this.requests.push(`${req.method} ${url.pathname}`);
    let body: Record<string, unknown> = {};
    try {
      body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
    } catch {
      return send(res, 400, { error: 'invalid argument', message: 'The body is not JSON' });
    }
    const answer = this.route(req.method ?? 'GET', url.pathname, url.searchParams, body);
    send(res, answer.status ?? 200, answer.value, answer.sessionId);
  }

  private route(method: string, path: string, query: URLSearchParams, body: Record<string, unknown>): { status?: number; value: unknown; sessionId?: string | null } {
    const m = /^\/session\/([^/]+)(\/.*)?$/.exec(path);
    const current = this.sessions.at(-1);
    if (m && (!current || current.id !== m[1] || current.ended)) return { status: 404, value: { error: 'invalid session id', message: `Session does not exist: ${m[1]}` } };
    const rest = m ? (m[2] ?? '') : path;
    const key = `${method} ${rest}`;
    switch (key) {
      case 'GET /status':
        return { value: { ready: true, message: 'WebDriverAgent is ready to accept commands', state: 'success', os: { name: 'iOS', sdkVersion: '17.0' }, build: { productBundleIdentifier: this.options.bundleId ?? 'com.facebook.WebDriverAgentRunner' } }, sessionId: current && !current.ended ? current.id : null };
      case 'POST /session': {
        const id = randomUUID().toUpperCase();
        this.sessions.push({ id, ended: false });
        for (const k of Object.keys(this.settings)) delete this.settings[k];
        return { value: { sessionId: id, capabilities: { device: 'iphone', sdkVersion: '17.0', CFBundleIdentifier: 'com.apple.springboard' } }, sessionId: id };
      }
      case 'DELETE ':
        current!.ended = true;
        return { value: null };
      case 'POST /appium/settings':
        Object.assign(this.settings, (body.settings ?? {}) as Record<string, unknown>);
        return { value: { ...this.settings } };
      case 'GET /appium/settings':
        return { value: { ...this.settings } };
      case 'GET /window/size':
        return { value: { width: this.options.size.width, height: this.options.size.height } };
      case 'GET /wda/screen':
        return { value: { statusBarSize: { width: this.options.size.width, height: 20 }, scale: this.options.size.scale } };
      case 'POST /actions':
        return this.pointer(body);
      case 'POST /wda/keys': {
        const value = body.value;
        if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return { status: 400, value: { error: 'invalid argument', message: 'value must be an array of strings' } };
        this.record({ kind: 'text', text: value.join('') });
        return { value: null };
      }
      case 'POST /wda/homescreen':
        this.record({ kind: 'button', name: 'home' });
        return { value: null };
      case 'POST /wda/pressButton': {
        const name = String(body.name ?? '');
        if (!['home', 'volumeUp', 'volumeDown'].includes(name)) return { status: 400, value: { error: 'invalid argument', message: `The button '${name}' is unknown` } };
        this.record({ kind: 'button', name });
        return { value: null };
      }
      case 'POST /wda/lock':
        this.record({ kind: 'button', name: 'lock' });
        return { value: null };
      case 'POST /wda/unlock':
        this.record({ kind: 'button', name: 'unlock' });
        return { value: null };
      case 'GET /orientation':
        return { value: this.orientation };
      case 'POST /orientation': {
        const o = String(body.orientation ?? '').toUpperCase();
        if (!['PORTRAIT', 'LANDSCAPE'].includes(o)) return { status: 400, value: { error: 'invalid argument', message: `Unknown orientation ${o}` } };
        this.orientation = o;
        this.record({ kind: 'orientation', orientation: o });
        return { value: o };
      }
      case 'POST /url':
        this.record({ kind: 'url', url: String(body.url ?? '') });
        return { value: null };
      case 'GET /screenshot':
        return { value: this.options.screenshot.toString('base64') };
      case 'GET /source':
        if (query.get('format') === 'json') return { value: this.options.tree };
        return { value: toXml(this.options.tree) };
      default:
        return { status: 404, value: { error: 'unknown command', message: `Unhandled endpoint: ${method} ${path}` } };
    }
  }

  /** W3C pointer actions as what the fingers did: a tap, a long press or a swipe; two fingers moving, a pinch. */
  private pointer(body: Record<string, unknown>): { status?: number; value: unknown } {
    const sources = Array.isArray(body.actions) ? (body.actions as { type?: string; actions?: Record<string, unknown>[] }[]) : [];
    const fingers = sources.filter((s) => s.type === 'pointer' && Array.isArray(s.actions)).map((s) => fingerPath(s.actions!));
    if (fingers.length === 0) return { status: 400, value: { error: 'invalid argument', message: 'no pointer action source' } };
    if (fingers.some((f) => f === null)) return { status: 400, value: { error: 'invalid argument', message: 'pointerUp without pointerDown' } };
    const paths = fingers as FingerPath[];
    if (paths.length > 1) {
      this.record({ kind: 'pinch', fingers: paths.map((f) => ({ x1: f.down.x, y1: f.down.y, x2: f.up.x, y2: f.up.y })), durationMs: Math.max(...paths.map((f) => f.held)) });
      return { value: null };
    }
    const { down, up, held } = paths[0]!;
    if (down.x === up.x && down.y === up.y) this.record(held >= 500 ? { kind: 'longPress', x: up.x, y: up.y, durationMs: held } : { kind: 'tap', x: up.x, y: up.y });
    else this.record({ kind: 'swipe', x1: down.x, y1: down.y, x2: up.x, y2: up.y, durationMs: held });
    return { value: null };
  }
}

interface FingerPath {
  down: { x: number; y: number };
  up: { x: number; y: number };
  held: number;
}

/** Where one finger went down and came up, and how long it stayed down; null when it came up without going down. */
function fingerPath(steps: Record<string, unknown>[]): FingerPath | null {
  let at = { x: 0, y: 0 };
  let down: { x: number; y: number } | null = null;
  let held = 0;
  for (const step of steps) {
    const duration = Number(step.duration ?? 0);
    if (step.type === 'pointerMove') {
      at = { x: Number(step.x), y: Number(step.y) };
      if (down) held += duration;
    } else if (step.type === 'pointerDown') {
      down = at;
      held = 0;
    } else if (step.type === 'pause') {
      if (down) held += duration;
    } else if (step.type === 'pointerUp') {
      if (!down) return null;
      return { down, up: at, held };
    }
  }
  return null;
}

function send(res: ServerResponse, status: number, value: unknown, sessionId: string | null = null): void {
  const text = JSON.stringify({ value, sessionId });
  res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function toXml(e: WdaElement): string {
  const attr = (v: unknown) => String(v ?? '').replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const { x, y, width, height } = e.rect;
  return `<${e.type} name="${attr(e.name)}" label="${attr(e.label)}" value="${attr(e.value)}" x="${x}" y="${y}" width="${width}" height="${height}">${(e.children ?? []).map(toXml).join('')}</${e.type}>`;
}

/** A small app screen: a window with a text field, a button and a label. */
export function sampleTree(width: number, height: number): WdaElement {
  const el = (type: string, name: string | null, label: string | null, rect: WdaElement['rect'], value: string | null = null, children: WdaElement[] = []): WdaElement => ({ type: `XCUIElementType${type}`, name, label, value, rect, isEnabled: true, children });
  return el('Application', 'Farm App', 'Farm App', { x: 0, y: 0, width, height }, null, [
    el('Window', null, null, { x: 0, y: 0, width, height }, null, [
      el('TextField', 'query', 'Search', { x: 20, y: 100, width: width - 40, height: 44 }, 'hello'),
      el('Button', 'go', 'Go', { x: 20, y: 160, width: 100, height: 44 }),
      el('StaticText', 'status', 'Ready', { x: 20, y: 220, width: 200, height: 21 }, 'Ready'),
    ]),
  ]);
}

