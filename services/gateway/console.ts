import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { NotFoundFallback } from '#shared/http/errors.js';
import { CONSOLE_PATH, pathOf } from './policy.js';

/**
 * A page of the console: a browser's navigation (it accepts text/html) to a console path without a
 * file extension. A missing asset, and any other client's request (an API client's `Accept: *\/*`),
 * stays the JSON 404.
 */
const isPageRequest = (request: FastifyRequest) =>
  (request.method === 'GET' || request.method === 'HEAD') &&
  (request.headers.accept ?? '').includes('text/html') &&
  CONSOLE_PATH.test(pathOf(request.url)) &&
  !/\.[a-z0-9]+$/i.test(pathOf(request.url));

/**
 * Serves the built console (`CONSOLE_DIR`, made by `scripts/build-console.mjs`) at `/`: hashed assets
 * cached for a year, index.html never cached, and the history fallback (a deep link such as
 * `/reset-password?token=…` is index.html) given to the server's not-found handler.
 */
export async function installConsole(app: FastifyInstance, dir: string): Promise<boolean> {
  if (!existsSync(join(dir, 'index.html'))) {
    app.log.warn({ dir }, 'web console not built (run `npm install` or `npm start`): / answers 404');
    return false;
  }
  await app.register(fastifyStatic, {
    root: dir,
    prefix: '/',
    index: false,
    wildcard: true,
    preCompressed: true,
    setHeaders: (reply, path) => {
      reply.header('cache-control', /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // `/` itself: the wildcard route does not match the bare root.
  app.get('/', { schema: { hide: true } }, (_request, reply) => sendIndex(reply));
  return true;
}

function sendIndex(reply: FastifyReply): FastifyReply {
  return reply.code(200).type('text/html; charset=utf-8').sendFile('index.html');
}

/** The not-found fallback of a gateway that serves the console. */
export const consoleFallback = (enabled: () => boolean): NotFoundFallback => (request, reply) =>
  enabled() && isPageRequest(request) ? sendIndex(reply) : undefined;
