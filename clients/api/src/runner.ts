/**
 * What a test runner's integration (the WebdriverIO service, the Playwright fixture) needs to reach the
 * platform from a CI job: the address and device-testing API key from its options over the
 * environment (`QA_PLATFORM_URL`, `QA_PLATFORM_API_KEY`, `QA_PLATFORM_WORKSPACE_ID`), a call that turns
 * refusals into errors carrying the platform's code, and the link to a session's replay.
 */

import { retryingFetch, type RetryPolicy } from './retry.js';

/** Where the platform is and how a runner signs its calls. */
export interface RunnerConnection {
  /** The platform's address, ending in `/`. */
  base: URL;
  /** `X-Api-Key` (or `Authorization` for a pipeline key), and `X-Workspace-Id` when one is named. */
  headers: Record<string, string>;
  /** How calls refused for now (429, 503) are tried again; the defaults of {@link RetryPolicy} when absent. */
  retry?: RetryPolicy;
}

export interface RunnerConnectionOptions {
  /** Default `QA_PLATFORM_URL`. */
  url?: string | undefined;
  /** A device-testing API key (`dfk_...`) or a pipeline key with the `devices` scope (`qak_...`); default `QA_PLATFORM_API_KEY`. */
  apiKey?: string | undefined;
  /** Default `QA_PLATFORM_WORKSPACE_ID`. */
  workspaceId?: string | number | undefined;
}

/** Why a runner cannot reach the platform: a setting is missing or malformed. */
export class QaPlatformConfigError extends Error {
  override name = 'QaPlatformConfigError';
}

/** A refusal of the platform's API: its status, and the error body's code and message. */
export class QaPlatformApiError extends Error {
  override name = 'QaPlatformApiError';
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
    /** The platform's own message (`Invalid API key`), without the call it answered. */
    readonly reason: string = message,
  ) {
    super(message);
  }
}

/** The process environment under Node; none in a browser (the console bundles this package too). */
const nodeEnv = (): Record<string, string | undefined> => (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};

/** The options merged over the environment, checked. */
export function runnerConnection(options: RunnerConnectionOptions = {}, env: Record<string, string | undefined> = nodeEnv()): RunnerConnection {
  const url = options.url ?? env.QA_PLATFORM_URL;
  const apiKey = options.apiKey ?? env.QA_PLATFORM_API_KEY;
  if (!url) throw new QaPlatformConfigError('Set QA_PLATFORM_URL (or the `url` option) to the platform address');
  if (!apiKey) throw new QaPlatformConfigError('Set QA_PLATFORM_API_KEY (or the `apiKey` option) to a device-testing API key (dfk_...) or a pipeline key with the devices scope (qak_...)');
  let base: URL;
  try {
    base = new URL(url.endsWith('/') ? url : `${url}/`);
  } catch {
    throw new QaPlatformConfigError(`QA_PLATFORM_URL is not a URL: ${url}`);
  }
  // A pipeline key (`qak_`, with the `devices` scope) is a bearer credential; a device key goes as X-Api-Key.
  const headers: Record<string, string> = apiKey.startsWith('qak_') ? { authorization: `Bearer ${apiKey}` } : { 'x-api-key': apiKey };
  const workspaceId = options.workspaceId ?? env.QA_PLATFORM_WORKSPACE_ID;
  if (workspaceId !== undefined && workspaceId !== '') headers['x-workspace-id'] = String(workspaceId);
  return { base, headers };
}

/**
 * One call as the runner's credential; the answer's JSON. A refusal throws `QaPlatformApiError` with
 * the platform's code, from its own error body or from the WebDriver hub's W3C one (`value.data.code`).
 */
export async function runnerCall<T = unknown>(connection: RunnerConnection, method: string, path: string, body?: unknown, options: { idempotencyKey?: string } = {}): Promise<T> {
  const headers: Record<string, string> = { ...connection.headers, accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  // A call sent again later (a runner's report) keeps its key; otherwise each POST gets its own (retry.ts).
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  const send = retryingFetch(undefined, connection.retry);
  const res = await send(new URL(path.replace(/^\//, ''), connection.base), { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  const parsed = text && (res.headers.get('content-type') ?? '').includes('json') ? (JSON.parse(text) as Record<string, unknown>) : null;
  if (!res.ok) throw refusal(method, path, res.status, text, parsed);
  return parsed as T;
}

/** The platform's refusal as an error: its code from its own error body or the WebDriver hub's W3C one (`value.data.code`). */
function refusal(method: string, path: string, status: number, text: string, parsed: Record<string, unknown> | null): QaPlatformApiError {
  const w3c = (parsed?.value ?? {}) as { message?: unknown; data?: { code?: unknown } };
  const code = [parsed?.code, w3c.data?.code].find((c): c is string => typeof c === 'string');
  const message = [parsed?.message, w3c.message].find((m): m is string => typeof m === 'string') ?? (text || `HTTP ${status}`);
  return new QaPlatformApiError(status, code, `${method} ${path}: ${status} ${code ?? ''} ${message}`.replace(/\s+/g, ' '), message);
}

/** One call as the runner's credential whose answer is not JSON (a video, its chapters): the answer, read by the caller; a refusal throws as in `runnerCall`. */
export async function runnerFetch(connection: RunnerConnection, method: string, path: string, accept: string): Promise<Response> {
  const send = retryingFetch(undefined, connection.retry);
  const res = await send(new URL(path.replace(/^\//, ''), connection.base), { method, headers: { ...connection.headers, accept: `${accept}, application/json` } });
  if (res.ok) return res;
  const text = await res.text();
  const parsed = text && (res.headers.get('content-type') ?? '').includes('json') ? (JSON.parse(text) as Record<string, unknown>) : null;
  throw refusal(method, path, res.status, text, parsed);
}

/** The console page of a session with its replay open (the link runners print for a failed test). */
export const replayLink = (connection: RunnerConnection, sessionId: string): string =>
  new URL(`sessions/${encodeURIComponent(sessionId)}?pane=replay`, connection.base).toString();
