/**
 * The console's only way to the platform: the public API, as any client uses it. The access token
 * is refreshed before it expires (its `exp`), every call sends `X-Workspace-Id`, and an error answer
 * becomes an ApiError carrying the body's `message`. The shapes of the API's answers come from the
 * typed client (`@qa-platform/client`, generated from the OpenAPI document).
 */
import type { ErrorDetail, TokenPair } from '@qa-platform/client';

export type { ErrorDetail, TokenPair };

export interface Auth {
  token: string;
  refreshToken: string;
  userId: number;
  workspaceId: number | null;
  /** When the access token stops being accepted, ms since the epoch. */
  expiresAt: number;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly details: readonly ErrorDetail[] = [],
  ) {
    super(message);
  }
}

const STORAGE_KEY = 'qa.auth';
let auth: Auth | null = load();
const listeners = new Set<(a: Auth | null) => void>();
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let refreshing: Promise<boolean> | null = null;

function load(): Auth | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    return raw ? (JSON.parse(raw) as Auth) : null;
  } catch {
    return null;
  }
}

function claimsOf(token: string): { exp: number; sub?: string; uid?: number; wid?: number } {
  const part = token.split('.')[1] ?? '';
  return JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/')));
}

export const currentAuth = () => auth;

export function onAuthChange(listener: (a: Auth | null) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Keeps a token pair (sign-in, refresh, switch-workspace) and plans its refresh. */
export function setTokens(pair: TokenPair | null): void {
  if (pair) {
    const claims = claimsOf(pair.token);
    auth = {
      token: pair.token,
      refreshToken: pair.refreshToken,
      userId: Number(claims.uid ?? claims.sub),
      workspaceId: claims.wid ?? null,
      expiresAt: claims.exp * 1000,
    };
    localStorage.setItem(STORAGE_KEY, JSON.stringify(auth));
  } else {
    auth = null;
    localStorage.removeItem(STORAGE_KEY);
  }
  scheduleRefresh();
  for (const l of listeners) l(auth);
}

function scheduleRefresh(): void {
  clearTimeout(refreshTimer);
  if (!auth) return;
  // A minute before expiry, or at 80% of a short lifetime.
  const left = auth.expiresAt - Date.now();
  const due = Math.max(1_000, Math.min(left - 60_000, left * 0.8));
  refreshTimer = setTimeout(() => void refresh(), Math.min(due, 2_147_000_000));
}

/** Exchanges the refresh token once, even when several calls ask at the same time. */
export function refresh(): Promise<boolean> {
  if (!auth) return Promise.resolve(false);
  refreshing ??= (async () => {
    try {
      const res = await fetch('/api/v1/auth/refresh', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken: auth!.refreshToken }),
      });
      if (!res.ok) {
        setTokens(null);
        return false;
      }
      setTokens((await res.json()) as TokenPair);
      return true;
    } catch {
      return false;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

if (auth) {
  if (auth.expiresAt < Date.now()) void refresh();
  else scheduleRefresh();
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null | readonly string[]>;
  /** Answer the raw Response (files, images). */
  raw?: boolean;
  /** Without the bearer token (sign-in, sign-up, activation). */
  anonymous?: boolean;
}

export function queryString(query: CallOptions['query']): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) for (const one of v) params.append(k, one);
    else params.set(k, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

export function authHeaders(): Record<string, string> {
  if (!auth) return {};
  const headers: Record<string, string> = { authorization: `Bearer ${auth.token}` };
  if (auth.workspaceId) headers['x-workspace-id'] = String(auth.workspaceId);
  return headers;
}

export async function api<T = unknown>(path: string, options: CallOptions = {}): Promise<T> {
  if (!options.anonymous && auth && auth.expiresAt - Date.now() < 15_000) await refresh();
  const send = () => {
    const headers: Record<string, string> = options.anonymous ? {} : authHeaders();
    let body: BodyInit | undefined;
    if (options.body instanceof FormData) body = options.body;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    return fetch(path + queryString(options.query), { method: options.method ?? 'GET', headers, ...(body !== undefined ? { body } : {}) });
  };
  let res = await send();
  if (res.status === 401 && !options.anonymous && auth && (await refresh())) res = await send();
  if (!res.ok) {
    let message = `${res.status} ${res.statusText}`;
    let code: string | undefined;
    let details: ErrorDetail[] = [];
    try {
      const body = (await res.json()) as { message?: string; code?: string; details?: unknown; error?: { message?: string; code?: string } };
      message = body.message ?? body.error?.message ?? message;
      code = body.code ?? body.error?.code;
      if (Array.isArray(body.details)) details = body.details as ErrorDetail[];
    } catch {
      /* not JSON */
    }
    throw new ApiError(res.status, message, code, details);
  }
  if (options.raw) return res as unknown as T;
  if (res.status === 204) return undefined as T;
  const type = res.headers.get('content-type') ?? '';
  return (type.includes('json') ? await res.json() : await res.text()) as T;
}

export async function signIn(login: string, password: string): Promise<void> {
  setTokens(await api<TokenPair>('/api/v1/auth/login', { method: 'POST', body: { username: login, password }, anonymous: true }));
  await enterWorkspace();
}

/** Sign-in through a directory (LDAP) identity provider: its username and password. */
export async function signInWithDirectory(providerId: number, username: string, password: string): Promise<void> {
  setTokens(await api<TokenPair>('/api/v1/auth/login', { method: 'POST', body: { username, password, providerId }, anonymous: true }));
  await enterWorkspace();
}

/** A token that names no workspace is re-issued for the first workspace the person may enter. */
export async function enterWorkspace(): Promise<void> {
  if (!auth || auth.workspaceId) return;
  const accessible = await api<{ id: number; archived: boolean }[]>('/api/v1/workspaces/accessible');
  const first = accessible.find((w) => !w.archived);
  if (first) await switchWorkspace(first.id);
}

export async function signOut(): Promise<void> {
  try {
    if (auth) await api('/api/v1/auth/logout', { method: 'POST' });
  } finally {
    setTokens(null);
  }
}

export async function switchWorkspace(id: number): Promise<void> {
  setTokens(await api<TokenPair>(`/api/v1/auth/switch-workspace/${id}`, { method: 'POST' }));
}

/** Saves a response body as a file the person downloads. */
export async function download(path: string, filename: string, query?: CallOptions['query'], request: Pick<CallOptions, 'method' | 'body'> = {}): Promise<void> {
  const res = await api<Response>(path, { raw: true, ...request, ...(query ? { query } : {}) });
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
