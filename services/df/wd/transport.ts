import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { AppError } from '#shared/errors.js';
import { traceHeaders } from '#shared/tracing/index.js';
import type { DataPlane, DataPlaneTarget } from '../core/data-plane.js';
import { MAX_COMMAND_WAIT_MS } from './policy.js';

/** One answer of the device's WebDriver server. */
export interface WireAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

/** How the hub reaches the WebDriver server (Appium) that drives a session's device. */
export interface WebDriverTransport {
  /** `path` is a WebDriver path (`/session`, `/session/{appiumId}/url`). */
  send(sessionId: string, method: string, path: string, body?: string): Promise<WireAnswer>;
  /** Forgets what was kept for a session (its data-plane token). */
  forget(sessionId: string): void;
}

/** Kept-alive connections to the agents' data planes (a WebDriver client sends commands one after another). */
const httpAgent = new Agent({ keepAlive: true, maxSockets: 256 });
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 256 });
const COMMAND_TIMEOUT_MS = MAX_COMMAND_WAIT_MS + 60_000;

/** One HTTP exchange with the data plane; the answer's body in full. */
function exchange(url: string, method: string, token: string, body: string | undefined): Promise<WireAnswer> {
  const secure = url.startsWith('https:');
  // The agent's data plane continues the command's trace (W3C `traceparent`) when tracing is on.
  const headers: Record<string, string | number> = { ...traceHeaders(), authorization: `Bearer ${token}` };
  if (body !== undefined) {
    headers['content-type'] = 'application/json; charset=utf-8';
    headers['content-length'] = Buffer.byteLength(body);
  }
  return new Promise((resolve, reject) => {
    const req = (secure ? httpsRequest : request)(url, { method, headers, agent: secure ? httpsAgent : httpAgent, timeout: COMMAND_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 502, contentType: contentTypeOf(res.headers), body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${COMMAND_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

const contentTypeOf = (headers: IncomingHttpHeaders) => headers['content-type'] ?? 'application/json; charset=utf-8';

/** A data-plane token is reused while it has this much life left (it lives 30 s). */
const TOKEN_REUSE_MS = 20_000;

/**
 * WebDriver over the data plane: `{agent}/devices/{deviceId}/wd{path}` with a short-lived token for
 * the session and scope `webdriver`. The token is reused for 20 s, so a command costs one HTTP hop.
 */
export function dataPlaneTransport(dataPlane: DataPlane, now: () => number = Date.now): WebDriverTransport {
  const targets = new Map<string, { target: DataPlaneTarget; until: number }>();
  const targetOf = async (sessionId: string) => {
    const kept = targets.get(sessionId);
    if (kept && kept.until > now()) return kept.target;
    const target = await dataPlane.target(sessionId, 'webdriver');
    targets.set(sessionId, { target, until: now() + TOKEN_REUSE_MS });
    return target;
  };
  return {
    async send(sessionId, method, path, body) {
      const target = await targetOf(sessionId);
      let answer: WireAnswer;
      try {
        answer = await exchange(`${target.baseUrl}/wd${path}`, method, target.token, body);
      } catch (err) {
        targets.delete(sessionId);
        throw new AppError('DEVICE_UNREACHABLE', `The device's host did not answer: ${(err as Error).message}`);
      }
      // The data plane refused the token (session moved on, keys rotated): ask for a new one next time.
      if (answer.status === 401 || answer.status === 403) targets.delete(sessionId);
      return answer;
    },
    forget(sessionId) {
      targets.delete(sessionId);
    },
  };
}
