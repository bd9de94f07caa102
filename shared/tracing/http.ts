import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contextFrom, failSpan, SpanKind, startSpan, tracingActive, withSpan, type Span } from './spans.js';

const spans = new WeakMap<FastifyRequest, Span>();

/** Ends a request's span with its status (5xx: failed). */
function endRequestSpan(request: FastifyRequest, status: number | undefined, aborted = false): void {
  const span = spans.get(request);
  if (!span) return;
  spans.delete(request);
  if (status !== undefined) span.setAttribute('http.response.status_code', status);
  if (aborted) failSpan(span, new Error('the client closed the connection before the answer'));
  else if (status !== undefined && status >= 500) span.setStatus({ code: 2 });
  span.end();
}

/**
 * A server span for every request of `app` when this process traces (shared/tracing/start.ts): named
 * `METHOD /route/:template` (`http.route`; a request no route matched has the method alone), continuing
 * the W3C `traceparent` the request carries, active for the rest of its handling (what it calls, logs,
 * forwards or sends over the bus joins the trace), ended with the status. Off, nothing is installed.
 */
export function installHttpTracing(app: FastifyInstance): void {
  if (!tracingActive()) return;
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.is404 ? undefined : request.routeOptions.url;
    const parent = contextFrom(request.headers);
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
    spans.set(request, span);
    withSpan(parent, span, done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    endRequestSpan(request, reply.statusCode);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    endRequestSpan(request, undefined, true);
    done();
  });
}
