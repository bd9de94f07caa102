import { z } from 'zod';

/** Methods a mock route answers; `ANY` answers every method, and `GET` also answers `HEAD`. */
export const MOCK_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'ANY'] as const;
export type MockMethod = (typeof MOCK_METHODS)[number];

export const MAX_ROUTES = 50;
export const MAX_BODY_BYTES = 64 * 1024;
export const MAX_DELAY_MS = 10_000;
export const MAX_HEADERS = 50;

/** Headers that would break the exchange, or reach beyond the mock on the platform's own origin. */
export const FORBIDDEN_HEADERS = [
  'connection',
  'content-length',
  'content-security-policy',
  'host',
  'keep-alive',
  'proxy-connection',
  'set-cookie',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
] as const;

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
// What Node will put on the wire: tab, visible ASCII and Latin-1, never CR or LF.
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]{0,4096}$/;
const PARAM = /^:[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const LITERAL = /^[A-Za-z0-9._~!$&'()+,;=@%-]{1,200}$/;

/** A route path pattern: `*` (everything), or `/`-separated literals, `:params`, and a final `*`. */
export function pathPatternProblem(path: string): string | null {
  if (path === '*' || path === '/') return null;
  if (!path.startsWith('/')) return 'must be "*" or start with "/"';
  const segments = path.replace(/\/$/, '').slice(1).split('/');
  for (const [i, s] of segments.entries()) {
    if (s === '*') {
      if (i !== segments.length - 1) return '"*" may only be the last segment';
      continue;
    }
    if (s.startsWith(':')) {
      if (!PARAM.test(s)) return `"${s}" is not a parameter name`;
      continue;
    }
    if (!LITERAL.test(s)) return `segment "${s}" has characters a path cannot carry unencoded`;
  }
  return null;
}

const JsonBody = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.unknown()), z.record(z.string(), z.unknown())]);

/** One route of a mock service as a client defines it; validated strictly, unknown fields refused. */
export const MockRouteInput = z
  .strictObject({
    method: z
      .string()
      .transform((m) => (m.trim() === '*' ? 'ANY' : m.trim().toUpperCase()))
      .pipe(z.enum(MOCK_METHODS)),
    path: z.string().min(1).max(512).superRefine((p, ctx) => {
      const problem = pathPatternProblem(p);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    status: z.number().int().min(200, 'a final status, 200 to 599 (1xx answers cannot end an exchange)').max(599),
    headers: z.record(z.string(), z.string()).default({}),
    body: JsonBody.optional(),
    delayMs: z.number().int().min(0).max(MAX_DELAY_MS).default(0),
  })
  .superRefine((route, ctx) => {
    const names = Object.keys(route.headers);
    if (names.length > MAX_HEADERS) ctx.addIssue({ code: 'custom', path: ['headers'], message: `at most ${MAX_HEADERS} headers` });
    const seen = new Set<string>();
    for (const name of names) {
      const lower = name.toLowerCase();
      if (!TOKEN.test(name)) ctx.addIssue({ code: 'custom', path: ['headers', name], message: 'not a valid header name' });
      else if ((FORBIDDEN_HEADERS as readonly string[]).includes(lower)) ctx.addIssue({ code: 'custom', path: ['headers', name], message: 'this header cannot be set by a mock' });
      else if (seen.has(lower)) ctx.addIssue({ code: 'custom', path: ['headers', name], message: 'header given twice (names are case-insensitive)' });
      if (!HEADER_VALUE.test(route.headers[name]!)) ctx.addIssue({ code: 'custom', path: ['headers', name], message: 'value has line breaks or control characters, or is longer than 4096' });
      seen.add(lower);
    }
    if (route.body !== undefined) {
      if (bodyBytes(route.body).length > MAX_BODY_BYTES) ctx.addIssue({ code: 'custom', path: ['body'], message: `at most ${MAX_BODY_BYTES} bytes` });
      if (route.status === 204 || route.status === 205 || route.status === 304) ctx.addIssue({ code: 'custom', path: ['body'], message: `a ${route.status} answer has no body` });
    }
  });

export type MockRoute = z.output<typeof MockRouteInput>;

/** A mock's module segment: the `<mock_module>` of its public path. */
export const mockModule = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'letters, digits, "-" and "_", at most 64')
  .refine((m) => m.toLowerCase() !== 'download', '"download" is the path of pre-authorized downloads');

/** The definition of a mock service: its name, module and routes (first match wins). */
export const MockDefinitionInput = z.strictObject({
  name: z.string().trim().min(1).max(100),
  module: mockModule,
  routes: z.array(MockRouteInput).min(1).max(MAX_ROUTES),
});

/** The bytes a body is sent as: a string as it is, anything else as JSON. */
export function bodyBytes(body: unknown): Buffer {
  return Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
}

/** Splits a request path after the public id into decoded segments; null when it cannot be decoded. */
export function pathSegments(rest: string): string[] | null {
  const trimmed = rest.replace(/^\/+/, '').replace(/\/+$/, '');
  if (trimmed === '') return [];
  try {
    return trimmed.split('/').map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
}

function pathMatches(pattern: string, segments: readonly string[]): boolean {
  if (pattern === '*') return true;
  const parts = pattern.replace(/^\/+/, '').replace(/\/+$/, '');
  const want = parts === '' ? [] : parts.split('/');
  for (let i = 0; i < want.length; i++) {
    const p = want[i]!;
    if (p === '*') return true;
    const s = segments[i];
    if (s === undefined) return false;
    if (p.startsWith(':')) {
      if (s === '') return false;
      continue;
    }
    let literal = p;
    try {
      literal = decodeURIComponent(p);
    } catch {
      // A literal with a stray "%" is compared as written.
    }
    if (literal !== s) return false;
  }
  return want.length === segments.length;
}

/** The first route answering `method` on `segments`, or null. */
export function matchRoute<R extends { method: string; path: string }>(routes: readonly R[], method: string, segments: readonly string[]): R | null {
  const m = method.toUpperCase();
  for (const route of routes) {
    const methodOk = route.method === 'ANY' || route.method === m || (m === 'HEAD' && route.method === 'GET');
    if (methodOk && pathMatches(route.path, segments)) return route;
  }
  return null;
}
