import { randomUUID } from 'node:crypto';
import type { TokenPair } from '@qa-platform/client';
import { loadConfig, saveConfig, withConfigLock, type DfctlConfig } from './config.js';
import { CliError, EXIT, exitCodeOfStatus, answerLost, isNetworkError, unreachable } from './errors.js';
import { claimsOf, secondsLeft } from './jwt.js';

/**
 * Refresh this long before the access token's `exp`, so a request never leaves with one about to
 * lapse; `DFCTL_REFRESH_MARGIN` (seconds) widens it for a machine whose clock runs behind.
 */
const REFRESH_MARGIN_SECONDS = /^\d{1,9}$/.test(process.env.DFCTL_REFRESH_MARGIN ?? '') ? Number(process.env.DFCTL_REFRESH_MARGIN) : 60;

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | readonly string[] | undefined>;
  /** Send no credential (sign-in, refresh). */
  anonymous?: boolean;
  /** Answer the body's bytes (an image) instead of parsing JSON. */
  binary?: boolean;
}

/**
 * How often a request refused for now (429, 503) is tried again, and the longest wait dfctl accepts before
 * one — the policy of the other clients (clients/api/src/retry.ts), written here again because dfctl bundles
 * nothing but its own code and ws (scripts/build-dfctl.mjs).
 */
const RETRIES = 5;
const LONGEST_WAIT_S = 120;

/** Seconds to wait from a `Retry-After` (seconds or an HTTP date); 1 when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number {
  if (header === null) return 1;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - now) / 1000)) : 1;
}

/** Strips a trailing slash and checks that the server address is an http(s) URL. */
export function normaliseServer(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(`--server must be a URL such as https://farm.example.com (got ${raw})`, 'USAGE', EXIT.USAGE);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`--server must be an http or https URL (got ${raw})`, 'USAGE', EXIT.USAGE);
  return url.toString().replace(/\/+$/, '');
}

/** The body of an error answer as the platform shapes it (`{code, message}`), whatever came. */
export async function errorOf(status: number, text: string, fallback: string): Promise<CliError> {
  let code = `HTTP_${status}`;
  let message = fallback;
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown };
    if (typeof body.code === 'string') code = body.code;
    if (typeof body.message === 'string') message = body.message;
  } catch {
    if (text.trim()) message = `${fallback}: ${text.trim().slice(0, 200)}`;
  }
  return new CliError(message, code, exitCodeOfStatus(status));
}

/**
 * The platform's API as dfctl uses it: the server and credential from the config file (or
 * `DFCTL_API_KEY`), the workspace header, tokens refreshed before they lapse and once more on a 401
 * `TOKEN_EXPIRED`, each new pair saved at once.
 */
export class Api {
  private config: DfctlConfig;
  readonly apiKey: string | undefined;

  constructor(
    private readonly options: { server?: string; configPath?: string } = {},
  ) {
    this.config = loadConfig(options.configPath);
    this.apiKey = process.env.DFCTL_API_KEY || undefined;
  }

  /** The server's base URL: `--server`, `DFCTL_SERVER`, or the one signed in to. */
  get server(): string {
    const raw = this.options.server ?? process.env.DFCTL_SERVER ?? this.config.server;
    if (!raw) throw new CliError('not signed in: run dfctl login --server <url>', 'NOT_SIGNED_IN', EXIT.AUTH);
    return normaliseServer(raw);
  }

  get saved(): DfctlConfig {
    return this.config;
  }

  /** Replaces the saved config (after sign-in, a workspace switch, sign-out). */
  save(config: DfctlConfig): void {
    this.config = config;
    saveConfig(config, this.options.configPath);
  }

  /** The workspace requests act in: the saved one, else the one in the token. */
  get workspaceId(): number | undefined {
    if (this.config.workspaceId !== undefined) return this.config.workspaceId;
    return this.config.accessToken ? claimsOf(this.config.accessToken).wid : undefined;
  }

  /** Headers that carry the credential and workspace (HTTP requests and WebSocket upgrades alike). */
  async authHeaders(): Promise<Record<string, string>> {
    if (this.apiKey) {
      const h: Record<string, string> = { 'x-api-key': this.apiKey };
      if (process.env.DFCTL_WORKSPACE) h['x-workspace-id'] = process.env.DFCTL_WORKSPACE;
      return h;
    }
    if (!this.config.accessToken) throw new CliError('not signed in: run dfctl login --server <url>', 'NOT_SIGNED_IN', EXIT.AUTH);
    if (secondsLeft(this.config.accessToken) < REFRESH_MARGIN_SECONDS) await this.refresh(this.config.accessToken);
    const h: Record<string, string> = { authorization: `Bearer ${this.config.accessToken}` };
    const ws = this.workspaceId;
    if (ws !== undefined) h['x-workspace-id'] = String(ws);
    return h;
  }

  /**
   * Exchanges the refresh token for a new pair, under the config lock. `stale` is the access token
   * the caller found wanting: when the file already holds another one (a concurrent dfctl refreshed),
   * that one is taken instead of spending a refresh token twice.
   */
  async refresh(stale: string): Promise<void> {
    const server = this.server;
    await withConfigLock(async () => {
      const current = loadConfig(this.options.configPath);
      if (current.accessToken && current.accessToken !== stale && secondsLeft(current.accessToken) >= REFRESH_MARGIN_SECONDS) {
        this.config = current;
        return;
      }
      const refreshToken = current.refreshToken ?? this.config.refreshToken;
      if (!refreshToken) throw new CliError('your sign-in has expired: run dfctl login', 'NOT_SIGNED_IN', EXIT.AUTH);
      let pair: TokenPair;
      try {
        pair = await this.send<TokenPair>(server, 'POST', '/api/v1/auth/refresh', { body: { refreshToken } }, {});
      } catch (err) {
        if (err instanceof CliError && err.exitCode === EXIT.AUTH) {
          throw new CliError(`your sign-in has ended (${err.message}): run dfctl login`, err.code, EXIT.AUTH);
        }
        throw err;
      }
      this.config = { ...current, accessToken: pair.token, refreshToken: pair.refreshToken };
      saveConfig(this.config, this.options.configPath);
    }, this.options.configPath);
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const server = this.server;
    if (options.anonymous) return this.send<T>(server, method, path, options, {});
    const headers = await this.authHeaders();
    try {
      return await this.send<T>(server, method, path, options, headers);
    } catch (err) {
      // A token can lapse between the check and the server's (clock skew, a long request queue).
      if (err instanceof CliError && err.code === 'TOKEN_EXPIRED' && !this.apiKey && this.config.accessToken) {
        await this.refresh(this.config.accessToken);
        return this.send<T>(server, method, path, options, await this.authHeaders());
      }
      throw err;
    }
  }

  get<T>(path: string, query?: RequestOptions['query']): Promise<T> {
    return this.request<T>('GET', path, query ? { query } : {});
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('POST', path, { body: body ?? {} });
  }

  /** The absolute URL of a path of the server (signed URLs may come relative). */
  url(path: string): URL {
    return new URL(path, `${this.server}/`);
  }

  private async send<T>(server: string, method: string, path: string, options: RequestOptions, headers: Record<string, string>): Promise<T> {
    const url = new URL(path, `${server}/`);
    for (const [k, v] of Object.entries(options.query ?? {})) {
      if (v === undefined) continue;
      if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, String(item));
      else url.searchParams.set(k, String(v));
    }
    const init: RequestInit = { method, headers: { accept: 'application/json', 'user-agent': userAgent(), ...headers } };
    if (options.body !== undefined) {
      init.body = JSON.stringify(options.body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    // A POST tried again carries one key, so a platform that took the first try answers it again instead of doing it twice.
    if (method === 'POST') (init.headers as Record<string, string>)['idempotency-key'] = randomUUID();
    let res: Response;
    for (let attempt = 0; ; attempt++) {
      try {
        res = await fetch(url, init);
      } catch (err) {
        // A POST whose answer was lost (the connection dropped after it went out) is sent again with its key:
        // the platform answers the first try's answer instead of doing it twice.
        if (method === 'POST' && attempt < RETRIES && answerLost(err)) {
          process.stderr.write(`dfctl: ${method} ${url.pathname} got no answer; trying again (${attempt + 1} of ${RETRIES})\n`);
          await new Promise((resolve) => setTimeout(resolve, 1000));
          continue;
        }
        if (isNetworkError(err)) throw unreachable(server, err);
        throw err;
      }
      const inUse = method === 'POST' && res.status === 409 && (await res.clone().text()).includes('"IDEMPOTENCY_KEY_IN_USE"');
      if ((res.status !== 429 && res.status !== 503 && !inUse) || attempt >= RETRIES) break;
      const wait = retryAfterSeconds(res.headers.get('retry-after'));
      if (wait > LONGEST_WAIT_S) break;
      await res.body?.cancel();
      process.stderr.write(`dfctl: ${method} ${url.pathname} answered ${res.status}; trying again in ${wait} s (${attempt + 1} of ${RETRIES})\n`);
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    }
    if (options.binary && res.ok) return Buffer.from(await res.arrayBuffer()) as T;
    const text = await res.text();
    if (!res.ok) throw await errorOf(res.status, text, `${method} ${url.pathname} answered ${res.status}`);
    if (res.status === 204 || text.length === 0) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new CliError(`${method} ${url.pathname} answered something that is not JSON; is ${server} the platform?`, 'BAD_ANSWER');
    }
  }
}

declare const __DFCTL_VERSION__: string | undefined;

/** The version: fixed into the bundle at build time; from npm when run from the repository. */
export function version(): string {
  if (typeof __DFCTL_VERSION__ === 'string') return __DFCTL_VERSION__;
  return process.env.npm_package_version ?? '0.0.0-dev';
}

export const userAgent = (): string => `dfctl/${version()} node/${process.versions.node}`;
