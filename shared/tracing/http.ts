import type { ServerResponse } from 'node:http';
import { context } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { DECIDED_SAMPLED, failSpan, requestTrace, SpanKind, startSpan, tracingActive, withSpan, type Span } from './spans.js';

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
 * A server span for every sampled request of `app` when this process traces (shared/tracing/start.ts):
 * named `METHOD /route/:template` (`http.route`; a request no route matched has the method alone),
 * continuing the W3C `traceparent` the request carries, active for the rest of its handling (what it
 * calls, logs, forwards or sends over the bus joins the trace), ended with the status. The sampling
 * decision comes first (`requestTrace`): a request that is not sampled gets no span at all, only a
 * context whose `traceparent` says so, which what it sends on carries. Off, nothing is installed.
 */
export function installHttpTracing(app: FastifyInstance): void {
  if (!tracingActive()) return;
  app.addHook('onRequest', (request, reply, done) => {
    const { sampled, parent } = requestTrace(request.headers);
    if (!sampled) return context.with(parent, done);
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
    withSpan(parent.deleteValue(DECIDED_SAMPLED), span, done);
  });
}
