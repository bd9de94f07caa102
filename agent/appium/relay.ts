import { Agent, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { DeviceDriver } from '../provider.js';
import type { AppiumServer } from './server.js';
import { inChildSpan, SpanKind } from '#shared/tracing/index.js';

/** W3C WebDriver error codes with their HTTP status (https://www.w3.org/TR/webdriver2/#errors). */
const W3C_STATUS = {
  'invalid argument': 400,
  'invalid session id': 404,
  'unknown command': 404,
  'session not created': 500,
  'unknown error': 500,
} as const;
type W3cError = keyof typeof W3C_STATUS;

function sendW3c(res: ServerResponse, error: W3cError, message: string): void {
  const body = JSON.stringify({ value: { error, message, stacktrace: '' } });
  res.writeHead(W3C_STATUS[error], { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function readBody(req: IncomingMessage, limit = 64 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The capabilities Appium receives: the device's own (automation name, executable, debugger address,
 * udid...) over what the client asked for, with the platform's `df:*` keys removed. A key the device
 * sets is taken out of every `firstMatch` entry, since W3C forbids a key in both places.
 * `appium:newCommandTimeout` defaults to 0: the platform's idle time-out governs idle sessions.
 */
export function mergeCapabilities(client: unknown, device: Record<string, unknown>): { capabilities: { alwaysMatch: Record<string, unknown>; firstMatch: Record<string, unknown>[] } } {
  const caps = isObject(client) && isObject(client.capabilities) ? client.capabilities : {};
  const strip = (o: unknown) => Object.fromEntries(Object.entries(isObject(o) ? o : {}).filter(([k]) => !k.startsWith('df:') && !(k in device)));
  const alwaysMatch = { 'appium:newCommandTimeout': 0, ...strip(caps.alwaysMatch), ...device };
  const firstMatch = (Array.isArray(caps.firstMatch) && caps.firstMatch.length > 0 ? caps.firstMatch : [{}]).map(strip);
  return { capabilities: { alwaysMatch, firstMatch } };
}

export interface WebDriverRelayDeps {
  appium: AppiumServer;
  /** The driver of a device of this host. */
  driverOf(deviceId: string): DeviceDriver | undefined;
  logger: Logger;
}

/** Kept-alive connections to the loopback Appium server. */
const keepAlive = new Agent({ keepAlive: true, maxSockets: 64 });

const SESSION_PATH = /^\/session\/([^/?#]+)(\/[^?#]*)?$/;

/**
 * The agent's side of `/df/wd`: WebDriver requests for one device, relayed to the host's Appium
 * server. A new session gets the device's capabilities merged over the client's; every later request
 * must name an Appium session created for the same device (a device's route never reaches another
 * device's session). A device that leaves its platform session has its Appium sessions deleted.
 */
export class WebDriverRelay {
  /** Appium session id → device id. */
  private readonly owners = new Map<string, string>();

  constructor(private readonly deps: WebDriverRelayDeps) {}

  /** Appium sessions currently open for a device. */
  sessionsOf(deviceId: string): string[] {
    return [...this.owners].filter(([, d]) => d === deviceId).map(([s]) => s);
  }

  /** Handles one request; `rest` is the WebDriver path after the device's prefix (`/session/...`). */
  async handle(deviceId: string, req: IncomingMessage, res: ServerResponse, rest: string): Promise<void> {
    try {
      const path = rest.split('?')[0] || '/';
      const method = (req.method ?? 'GET').toUpperCase();
      if (path === '/status' && method === 'GET') {
        const url = await this.deps.appium.ensure();
        await this.forward(res, method, `${url}/status`, undefined);
        return;
      }
      if (path === '/session' && method === 'POST') {
        await this.createSession(deviceId, req, res);
        return;
      }
      const m = SESSION_PATH.exec(path);
      if (!m) {
        sendW3c(res, 'unknown command', `${method} ${path} is not a WebDriver session command`);
        return;
      }
      const appiumSessionId = decodeURIComponent(m[1]!);
      if (this.owners.get(appiumSessionId) !== deviceId) {
        sendW3c(res, 'invalid session id', `No WebDriver session ${appiumSessionId} on this device`);
        return;
      }
      const url = await this.deps.appium.ensure();
      const body = method === 'GET' || method === 'HEAD' || method === 'DELETE' ? undefined : await readBody(req);
      // The device call of a WebDriver command: a leaf span of its trace when tracing is on.
      const command = m[2] ? `/session/{id}${m[2].replace(/\/[^/]*[0-9][^/]*/g, '/{id}')}` : '/session/{id}';
      await inChildSpan(`appium ${method} ${command}`, { 'http.request.method': method, 'url.template': command }, () => this.forward(res, method, `${url}${path}`, body), SpanKind.CLIENT);
      if (method === 'DELETE' && !m[2]) this.owners.delete(appiumSessionId);
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message, deviceId }, 'WebDriver relay failed');
      if (!res.headersSent) sendW3c(res, 'unknown error', `The device's WebDriver server failed: ${(err as Error).message}`);
      else res.destroy();
    }
  }

  private async createSession(deviceId: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const driver = this.deps.driverOf(deviceId);
    if (!driver) {
      sendW3c(res, 'session not created', `Device ${deviceId} is not on this host`);
      return;
    }
    if (!driver.webdriverCapabilities) {
      sendW3c(res, 'session not created', 'This device cannot be driven over WebDriver');
      return;
    }
    let client: unknown;
    try {
      client = JSON.parse((await readBody(req)).toString('utf8') || '{}');
    } catch {
      sendW3c(res, 'invalid argument', 'The new-session body is not valid JSON');
      return;
    }
    const deviceCaps = await driver.webdriverCapabilities();
    const url = await this.deps.appium.ensure();
    const { answer, text } = await inChildSpan('appium POST /session', { 'http.request.method': 'POST', 'url.template': '/session' }, async () => {
      const answer = await fetch(`${url}/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify(mergeCapabilities(client, deviceCaps)),
      });
      return { answer, text: await answer.text() };
    }, SpanKind.CLIENT);
    if (answer.ok) {
      try {
        const parsed = JSON.parse(text) as { value?: { sessionId?: string } };
        if (parsed.value?.sessionId) this.owners.set(parsed.value.sessionId, deviceId);
      } catch {
        // Passed on as it is; the hub reports an unreadable answer.
      }
    }
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json; charset=utf-8' });
    res.end(text);
  }

  private forward(res: ServerResponse, method: string, url: string, body: Buffer | undefined): Promise<void> {
    const headers: Record<string, string | number> = {};
    if (body && body.length > 0) {
      headers['content-type'] = 'application/json; charset=utf-8';
      headers['content-length'] = body.length;
    }
    return new Promise((resolve, reject) => {
      const upstream = request(url, { method, headers, agent: keepAlive }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, {
          'content-type': answer.headers['content-type'] ?? 'application/json; charset=utf-8',
          ...(answer.headers['content-length'] ? { 'content-length': answer.headers['content-length'] } : {}),
        });
        answer.pipe(res);
        answer.on('end', () => {
          done = true;
          resolve();
        });
        answer.on('error', reject);
      });
      let done = false;
      upstream.on('error', reject);
      // The caller went away mid-answer: stop reading Appium's.
      res.on('close', () => {
        if (!done) upstream.destroy();
      });
      upstream.end(body && body.length > 0 ? body : undefined);
    });
  }

  /** Deletes the Appium sessions of a device that left its platform session. */
  async releaseDevice(deviceId: string): Promise<void> {
    const sessions = this.sessionsOf(deviceId);
    if (sessions.length === 0) return;
    for (const s of sessions) this.owners.delete(s);
    const url = this.deps.appium.baseUrl;
    if (!url) return;
    await Promise.all(
      sessions.map((s) =>
        fetch(`${url}/session/${encodeURIComponent(s)}`, { method: 'DELETE', signal: AbortSignal.timeout(10_000) })
          .then((r) => r.arrayBuffer())
          .catch((err: unknown) => this.deps.logger.debug({ err: (err as Error).message, deviceId }, 'deleting an Appium session failed')),
      ),
    );
  }
}
