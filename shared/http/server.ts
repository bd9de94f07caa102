import { errorBody } from '../errors.js';
import { requestLoggerFactory } from './request-logger.js';
import { serverTimingOf, withRequestContext, type RequestContext } from '../request-context.js';
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { z } from 'zod';
import { clientErrorHandler, installErrorHandling, isV1Path, type NotFoundFallback } from './errors.js';
import { installInputHygiene } from './input-hygiene.js';
import { installAbsentBodies } from './absent-body.js';
import { installHttpMetrics, type MetricsExposure } from '../metrics/index.js';
import { requestTraceContext } from '../tracing/index.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The error body of every failure (docs/api-conventions.md, "Errors"), documented on every route. */
export const ErrorResponse = z
  .object({
    statusCode: z.number().int(),
    code: z.string().describe('Stable, machine-readable error code'),
    error: z.string(),
    message: z.string(),
    details: z.array(z.looseObject({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'ErrorResponse' });

/** The error body of the `/v1` set (docs/api-conventions.md, "Paging"). */
export const V1Error = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.string().describe('Stable, machine-readable error code'),
      message: z.string(),
      details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    }),
  })
  .meta({ id: 'V1Error' });

export interface HttpServerOptions {
  logger: Logger;
  bodyLimit: number;
  trustProxy?: boolean;
  /** Serve `/openapi.json` and Swagger UI at `/docs`. */
  openapi?: {
    title: string;
    version: string;
    description?: string;
    /** Adds what no route schema says to the generated document (a header every POST takes). */
    complete?: (document: object) => void;
  };
  /**
   * OpenAPI security requirements of one route, from its method and URL as registered; the schemes
   * they name are `securitySchemes`. Without it every operation asks for a bearer token.
   */
  security?: {
    schemes: Record<string, unknown>;
    of(method: string, url: string): Record<string, string[]>[];
  };
  /** Rewrites a URL before routing (the gateway's `/tmt/api/v1/auth/**`). */
  rewriteUrl?: (url: string) => string;
  /** Answers what no route matched before the JSON 404 (the gateway's web console). */
  notFound?: NotFoundFallback;
  /** Request-duration metrics and `/metrics` behind a token (shared/metrics); absent: none. */
  metrics?: MetricsExposure;
}

export type App = FastifyInstance;

/**
 * A Fastify server with the platform's conventions: request ids (taken from `X-Request-Id` when sane,
 * echoed back), structured logs, zod schemas for validation and serialisation, one error handler,
 * JSON 404s, and OpenAPI generated from the route schemas.
 */
export async function createHttpServer(options: HttpServerOptions): Promise<FastifyInstance> {
  const serverOptions: FastifyServerOptions = {
    loggerInstance: options.logger,
    childLoggerFactory: requestLoggerFactory,
    bodyLimit: options.bodyLimit,
    trustProxy: options.trustProxy ?? false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Probes and scrapes would drown the log; every other request is logged with its id.
    logController: new LogController({
      requestIdLogLabel: 'requestId',
      disableRequestLogging: (req) => req.url === '/health' || req.url === '/ready' || req.url === '/metrics',
    }),
    // A URL the router cannot decode (`%FF`, an encoded lone surrogate in the path) is refused as bad
    // input in the error contract, before any hook runs; an upgrade refused this way ends its connection.
    frameworkErrors: (error, request, reply) => {
      const badUrl = (error as { code?: string }).code === 'FST_ERR_BAD_URL';
      const body = badUrl
        ? errorBody('INVALID_INPUT', 'Invalid text in path: percent-escapes that are not UTF-8 text cannot be stored', [
            { path: 'path', message: 'Holds percent-escapes that are not UTF-8 text (an encoded unpaired surrogate, say), which cannot be stored' },
          ])
        : errorBody('BAD_REQUEST', 'The request could not be routed');
      const answer = reply as unknown as FastifyReply;
      void answer.code(body.statusCode).header('x-request-id', request.id).send(body);
      if ((request.raw.headers.upgrade ?? '').toLowerCase() === 'websocket') {
        const socket = request.raw.socket;
        socket?.end(() => socket.destroy());
      }
    },
    // What Node's HTTP parser refuses (431 headers too large, 400 a malformed request, 408) is answered
    // in the same JSON error shape, with a code, and its connection closed.
    clientErrorHandler,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  };
  const rewrite = options.rewriteUrl;
  if (rewrite) serverOptions.rewriteUrl = (req) => rewrite(req.url ?? '/');
  const app = Fastify(serverOptions).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  // An error answer that does not match the schema its route documents is still the answer the client
  // is owed: sent as it is (and logged as the bug it is), never turned into a 500 by serialisation.
  app.setSerializerCompiler((route) => {
    const strict = serializerCompiler(route as Parameters<typeof serializerCompiler>[0]);
    if (!/^[45]/.test(String(route.httpStatus))) return strict;
    return (data) => {
      try {
        return strict(data);
      } catch (err) {
        app.log.error({ err, method: route.method, url: route.url, status: route.httpStatus }, 'error answer does not match its documented schema');
        return JSON.stringify(data);
      }
    };
  });
  installErrorHandling(app, options.notFound);
  if (options.metrics) installHttpMetrics(app, options.metrics);
  // The rest of each request runs in its context: the events it causes record its address and id. When
  // this process traces, the same run also makes the request's trace context active (a server span for a
  // sampled request): one hook and one asynchronous storage run per request, not two.
  app.decorateRequest('requestContext', null);
  app.addHook('onRequest', (request, reply, done) => {
    const context: RequestContext = { requestId: request.id, clientAddress: request.ip };
    request.requestContext = context;
    withRequestContext(context, done, requestTraceContext(request, reply));
  });
  installInputHygiene(app);
  installAbsentBodies(app);
  // Every documented route also documents the error shape it can answer with.
  const security = options.security;
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { response?: Record<string, unknown>; hide?: boolean; security?: unknown } | undefined;
    if (!schema || schema.hide) return;
    // Swagger UI sends the credentials (and the workspace header) an operation names, nothing else.
    if (security && schema.security === undefined) schema.security = security.of([route.method].flat()[0] ?? 'GET', route.url);
    if (!schema.response) return;
    // A route that answers errors in a format of its own (`/oauth/token`) documents it itself.
    const error = isV1Path(route.url) ? V1Error : ErrorResponse;
    schema.response = { '4XX': error, '5XX': error, ...schema.response };
  });
  // A WebSocket handshake answered over HTTP (refused for its input, its credentials, an unknown path)
  // ends its connection once the answer is out: nothing else would, and a client keeping it open
  // would hold the server's shutdown. A handshake that succeeds never gets here (the socket is taken over).
  app.addHook('onResponse', (request, _reply, done) => {
    if (request.raw.headers.upgrade !== undefined && request.raw.headers.upgrade.toLowerCase() === 'websocket') {
      const socket = request.raw.socket;
      if (socket && !socket.destroyed) socket.end(() => socket.destroy());
    }
    done();
  });
  // During a graceful shutdown, answers still in flight close their connection, so no idle
  // keep-alive socket holds the server open after the last response.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // One synchronous hook for every answer (errors from earlier hooks included): the request id, and
  // during shutdown the connection's end.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    const timing = serverTimingOf(request.requestContext ?? undefined);
    if (timing) reply.header('server-timing', timing);
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  if (options.openapi) {
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: options.openapi.title, version: options.openapi.version, description: options.openapi.description ?? '' },
        components: {
          securitySchemes: (options.security?.schemes ?? { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } }) as never,
        },
        security: [{ bearerAuth: [] }],
      },
      transform: jsonSchemaTransform,
      transformObject: (input) => {
        const document = jsonSchemaTransformObject(input);
        options.openapi?.complete?.(document);
        return document;
      },
    });
    await app.register(fastifySwaggerUi, { routePrefix: '/docs' });
    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  }
  return app;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's context (its id, the client's address, its timed steps); see shared/request-context.ts. */
    requestContext: RequestContext | null;
  }
}
