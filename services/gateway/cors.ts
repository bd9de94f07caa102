import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '#shared/errors.js';
import { sendError } from '#shared/http/errors.js';

/** Exactly these request headers. */
export const CORS_ALLOWED_HEADERS = ['authorization', 'content-type', 'x-auth-token', 'x-workspace-id'] as const;
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const EXPOSED_HEADERS = 'x-request-id, retry-after, x-log-position';

export interface CorsOptions {
  platformDomain: string;
  /** Accept `http(s)://localhost` and `127.0.0.1` origins (development). */
  allowLocalhost: boolean;
}

/** Whether a browser page at `origin` may call the platform. */
export function originAllowed(origin: string, options: CorsOptions): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin !== origin) return false;
  const host = url.hostname.toLowerCase();
  if (options.allowLocalhost && (host === 'localhost' || host === '127.0.0.1' || host === '[::1]')) {
    return url.protocol === 'http:' || url.protocol === 'https:';
  }
  const domain = options.platformDomain.toLowerCase();
  return url.protocol === 'https:' && host.endsWith(`.${domain}`) && host.length > domain.length + 1;
}

/**
 * Public mock services stand in for third-party APIs that apps under test call from their own pages,
 * wherever those are served: any origin may call them, without credentials (the path is the only key).
 */
const OPEN_PATHS = /^\/tmt\/api\/v1\/public\/[^/]+\/mock-services\/[^/?]+/;

function answerOpenPath(request: FastifyRequest, reply: FastifyReply): boolean {
  reply.header('access-control-allow-origin', '*');
  reply.header('access-control-expose-headers', '*');
  if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] === undefined) return false;
  reply.header('access-control-allow-methods', 'GET, HEAD, POST, PUT, PATCH, DELETE');
  const asked = request.headers['access-control-request-headers'];
  if (typeof asked === 'string' && asked.length > 0) reply.header('access-control-allow-headers', asked);
  reply.header('access-control-max-age', '600');
  reply.code(204).send();
  return true;
}

/**
 * CORS as the interface states it. A request from a refused origin is answered 403 before anything
 * else runs, so a page elsewhere cannot make the platform act even when the browser would hide the
 * answer.
 */
export function installCors(app: FastifyInstance, options: CorsOptions): void {
  // A page's origin is sent on every request it makes, and parsing it as a URL each time was most of
  // what CORS cost a request: the verdict is kept per origin (a handful in practice; bounded against junk).
  const verdicts = new Map<string, boolean>();
  const allowed = (origin: string): boolean => {
    let verdict = verdicts.get(origin);
    if (verdict === undefined) {
      verdict = originAllowed(origin, options);
      if (verdicts.size >= 1_000) verdicts.clear();
      verdicts.set(origin, verdict);
    }
    return verdict;
  };
  // Synchronous: it runs on every request, and most requests (no Origin) leave at the first line.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const origin = request.headers.origin;
    if (origin === undefined) return done();
    reply.header('vary', 'Origin');
    // The platform's own pages (the web console) are same-origin: a browser sends Origin on their
    // module scripts and POSTs too, and CORS has nothing to decide there.
    if (origin === `${request.protocol}://${request.host}`) return done();
    if (OPEN_PATHS.test(request.url)) {
      if (!answerOpenPath(request, reply)) done();
      return;
    }
    if (!allowed(origin)) {
      sendError(request, reply, new AppError('CORS_ORIGIN_REFUSED', `Origin ${origin} is not allowed`));
      return;
    }
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-allow-credentials', 'true');
    reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      const asked = String(request.headers['access-control-request-headers'] ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean);
      const refused = asked.filter((h) => !(CORS_ALLOWED_HEADERS as readonly string[]).includes(h));
      if (refused.length > 0) {
        sendError(request, reply, new AppError('CORS_ORIGIN_REFUSED', `Request headers not allowed: ${refused.join(', ')}`));
        return;
      }
      reply.header('access-control-allow-methods', ALLOWED_METHODS);
      reply.header('access-control-allow-headers', CORS_ALLOWED_HEADERS.join(', '));
      reply.header('access-control-max-age', '600');
      reply.code(204).send();
      return;
    }
    done();
  });
}
