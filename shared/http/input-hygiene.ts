import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

// A NUL character, or a UTF-16 surrogate without its partner: PostgreSQL's text cannot hold the first,
// and neither UTF-8 nor a JSON answer can carry the second faithfully (docs/api-conventions.md,
// "Input hygiene").
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Any NUL or surrogate at all: a cheap first look, the exact pattern only where it matches. */
const SUSPECT = /[\u0000\ud800-\udfff]/;

/** Whether a string holds text that cannot be stored faithfully. */
export function isUnstorable(text: string): boolean {
  return SUSPECT.test(text) && UNSTORABLE.test(text);
}

/**
 * Whether `value` holds unstorable text anywhere, without naming where (no path is built): what every
 * request pays. `findUnstorableText` names the place once something was found.
 */
function holdsUnstorableText(value: unknown): boolean {
  if (typeof value === 'string') return isUnstorable(value);
  if (value === null || typeof value !== 'object') return false;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (isUnstorable(item)) return true;
    } else if (Array.isArray(item)) {
      for (const child of item) pending.push(child);
    } else if (item !== null && typeof item === 'object' && isPlainObject(item)) {
      for (const key in item) {
        if (!Object.prototype.hasOwnProperty.call(item, key)) continue;
        if (isUnstorable(key)) return true;
        pending.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/**
 * The path of the first string (or object key) in `value` that cannot be stored faithfully, or null.
 * Walks records and arrays only (never Buffers or streams), without recursion, so a deeply nested
 * body cannot exhaust the stack.
 */
export function findUnstorableText(value: unknown, root: string): string | null {
  if (!holdsUnstorableText(value)) return null;
  const pending: [unknown, string][] = [[value, root]];
  while (pending.length > 0) {
    const [item, path] = pending.pop()!;
    if (typeof item === 'string') {
      if (UNSTORABLE.test(item)) return path;
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) pending.push([item[i], `${path}.${i}`]);
    } else if (item !== null && typeof item === 'object' && isPlainObject(item)) {
      const entries = Object.entries(item);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        const childPath = `${path}.${key}`;
        if (UNSTORABLE.test(key)) return childPath;
        pending.push([child, childPath]);
      }
    }
  }
  return null;
}

// Parsed JSON, query strings and route parameters are records (query strings come with a prototype
// of their own, without `Object`'s); Buffers, typed arrays and streams are not text.
function isPlainObject(value: object): boolean {
  return Object.prototype.toString.call(value) === '[object Object]' && typeof (value as { pipe?: unknown }).pipe !== 'function';
}

function refuse(path: string): AppError {
  const message =
    path === 'path' || path === 'query'
      ? 'Holds percent-escapes that are not UTF-8 text (an encoded unpaired surrogate, say), which cannot be stored'
      : 'Contains a NUL character or an unpaired surrogate, which cannot be stored';
  return new AppError('INVALID_INPUT', `Invalid text in ${path}: ${message.toLowerCase()}`, { details: [{ path, message }] });
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const ESCAPES = /(?:%[0-9A-Fa-f]{2})+/g;

/**
 * Whether a raw path or query holds percent-escapes that are not UTF-8 (`%ED%A0%80`, an encoded lone
 * surrogate; `%FF`): decoders would silently replace them, so the text a client sent could not be
 * stored as sent.
 */
export function hasMalformedEscapes(raw: string): boolean {
  for (const run of raw.match(ESCAPES) ?? []) {
    const bytes = Uint8Array.from(run.slice(1).split('%'), (h) => parseInt(h, 16));
    try {
      strictUtf8.decode(bytes);
    } catch {
      return true;
    }
  }
  return false;
}

/** The first header, path parameter or query value of a request holding unstorable text, as a path. */
function unstorableInRequestLine(request: FastifyRequest): string | null {
  const raw = request.raw.url ?? '';
  const q = raw.indexOf('?');
  if (raw.includes('%')) {
    if (hasMalformedEscapes(q < 0 ? raw : raw.slice(0, q))) return 'path';
    if (q >= 0 && hasMalformedEscapes(raw.slice(q + 1))) return 'query';
  }
  const headers = request.headers;
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && holdsUnstorableText(value)) return findUnstorableText(value, `headers.${name}`);
  }
  return findUnstorableText(request.params, 'params') ?? findUnstorableText(request.query, 'query');
}

/**
 * One place that refuses text which cannot be stored faithfully, for every route of a server (public
 * ones and WebSocket upgrades included): headers, path parameters and query values before anything
 * else runs, bodies once parsed and before validation. No module has to remember it.
 */
export function installInputHygiene(app: FastifyInstance): void {
  // Synchronous hooks: they run on every request, and an async one costs a promise and a turn each.
  app.addHook('onRequest', (request, _reply, done) => {
    const found = unstorableInRequestLine(request);
    done(found ? refuse(found) : undefined);
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const found = request.body === undefined || request.body === null ? null : findUnstorableText(request.body, 'body');
    done(found ? refuse(found) : undefined);
  });
}
