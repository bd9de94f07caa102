import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';

/**
 * Whether this process exports traces (`startTracing` ran with an endpoint). Off, every helper below
 * does nothing and allocates nothing: no span, no context, no header.
 */
let active = false;

/** Called by `startTracing` / its shutdown only. */
export function setTracingActive(on: boolean): void {
  active = on;
}

export function tracingActive(): boolean {
  return active;
}

const tracer = () => trace.getTracer('qa-platform');

/** Ends `span` with the error `err` recorded, as failed. */
export function failSpan(span: Span, err: unknown): void {
  span.recordException(err instanceof Error ? err : String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message.slice(0, 200) : String(err).slice(0, 200) });
}

/**
 * Runs `fn` in a span named `name` (a child of the active span, if any), ended when `fn` settles and
 * marked failed when it throws. With tracing off it only runs `fn`.
 */
export function inSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T>, kind: SpanKind = SpanKind.INTERNAL, parent?: Context): Promise<T> {
  if (!active) return fn();
  return tracer().startActiveSpan(name, { kind, attributes }, parent ?? context.active(), async (span) => {
    try {
      return await fn();
    } catch (err) {
      failSpan(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * As `inSpan`, inside a trace only: a call made outside any (a screencast's frame acknowledgement, a
 * health reading) starts no trace of its own. For the device calls, the leaves of a request's trace.
 */
export function inChildSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T>, kind: SpanKind = SpanKind.CLIENT): Promise<T> {
  if (!active || trace.getActiveSpan() === undefined) return fn();
  return inSpan(name, attributes, fn, kind);
}

/** Adds `attributes` to the active span, and marks it failed with `error` when given; nothing when off. */
export function markActiveSpan(attributes: Attributes, error?: string): void {
  if (!active) return;
  const span = trace.getActiveSpan();
  span?.setAttributes(attributes);
  if (error !== undefined) span?.setStatus({ code: SpanStatusCode.ERROR, message: error.slice(0, 200) });
}

/** Starts a span the caller ends (a server span whose request ends in another hook). */
export function startSpan(name: string, attributes: Attributes, kind: SpanKind, parent: Context): Span {
  return tracer().startSpan(name, { kind, attributes }, parent);
}

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** The W3C `traceparent` (and `tracestate`) of the active span, to send on; empty when off or outside a trace. */
export function traceHeaders(): Record<string, string> {
  if (!active) return NO_HEADERS;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** The context a received `traceparent` continues (the root context when there is none). */
export function contextFrom(headers: Record<string, string | string[] | undefined> | undefined): Context {
  return headers ? propagation.extract(ROOT_CONTEXT, headers) : ROOT_CONTEXT;
}

/** Whether `headers` carry a trace to continue. */
export function carriesTrace(headers: Record<string, unknown> | undefined): boolean {
  return typeof headers?.traceparent === 'string';
}

/** Runs `fn` outside any trace (background work whose timer was set inside one); only `fn` when off. */
export function outsideTrace<T>(fn: () => T): T {
  return active ? context.with(ROOT_CONTEXT, fn) : fn();
}

/**
 * `setInterval` whose ticks run outside any trace, wherever it is called: a timer set while a request's
 * span is active (a sweeper started lazily, a lease renewal, a poller) would otherwise run every later
 * tick inside that request's trace, which then never ends. Off, plain `setInterval`.
 */
export function setIntervalOutsideTrace(fn: () => void, everyMs: number): NodeJS.Timeout {
  return outsideTrace(() => setInterval(fn, everyMs));
}

/** Runs `fn` with `span` active in `parent`. */
export function withSpan<T>(parent: Context, span: Span, fn: () => T): T {
  return context.with(trace.setSpan(parent, span), fn);
}

/**
 * `trace_id` and `span_id` of the active span, for a log line (pino's `mixin`, which merges the line
 * into the object returned: a new one each time); nothing outside a trace or when off.
 */
export function logTraceFields(): { trace_id?: string; span_id?: string } {
  const span = active ? trace.getActiveSpan() : undefined;
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

export { SpanKind, SpanStatusCode, type Span, type Attributes };
