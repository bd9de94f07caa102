import type { ServerResponse } from 'node:http';
import { context, trace, type Context } from '@opentelemetry/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DECIDED_SAMPLED, failSpan, requestTrace, SpanKind, startSpan, tracingActive, type Span } from './spans.js';

/**
 * Ends a request's span when its answer has been sent, with the status (5xx: failed), or failed when
 * the connection closed first. A listener on the sampled request's own response rather than Fastify
 * hooks: a hook runs (and an abort hook adds a listener) for every request, sampled or not.
 */
function endWithResponse(res: ServerResponse, span: Span): void {
  res.once('close', () => {
    if (!res.writableFinished) {
      failSpan(span, new Error('the client closed the connection before the answer'));
    } else {
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: 2 });
    }
    span.end();
  });
}

/**
 * The trace context a request of a process that traces runs in (shared/tracing/start.ts): for a sampled
 * request, a server span named `METHOD /route/:template` (`http.route`; a request no route matched has
 * the method alone), continuing the W3C `traceparent` the request carries and ended with the status; for
 * one not sampled, no span at all, only a context whose `traceparent` says so, which what it sends on
 * carries. The sampling decision comes first (`requestTrace`). `undefined` when this process does not
 * trace. The caller runs the rest of the request's handling in it: shared/http/server.ts enters it with
 * the request's own context, in one asynchronous storage run.
 */
export function requestTraceContext(request: FastifyRequest, reply: FastifyReply): Context | undefined {
  if (!tracingActive()) return undefined;
  const { sampled, parent } = requestTrace(request.headers);
  if (!sampled) return parent;
  const route = request.is404 ? undefined : request.routeOptions.url;
  const span = startSpan(
    route === undefined ? request.method : `${request.method} ${route}`,
    {
      'http.request.method': request.method,
      ...(route === undefined ? {} : { 'http.route': route }),
      'client.address': request.ip,
      'http.request.id': request.id,
    },
    SpanKind.SERVER,
    parent,
  );
  endWithResponse(reply.raw, span);
  return trace.setSpan(parent.deleteValue(DECIDED_SAMPLED), span);
}

/**
 * The same for an application not made by shared/http/server.ts (a test's bare Fastify): a hook that runs
 * the rest of each request in its trace context. Off, nothing is installed.
 */
export function installHttpTracing(app: FastifyInstance): void {
  if (!tracingActive()) return;
  app.addHook('onRequest', (request, reply, done) => {
    const traced = requestTraceContext(request, reply);
    return traced === undefined ? done() : context.with(traced, done);
  });
}
