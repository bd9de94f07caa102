import { randomBytes } from 'node:crypto';
import { context, createContextKey, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Attributes, type Context, type Link, type Span, type SpanOptions } from '@opentelemetry/api';

/**
 * Whether this process exports traces (`startTracing` ran with an endpoint). Off, every helper below
 * does nothing and allocates nothing: no span, no context, no header.
 */
let active = false;

/**
 * How this process decides a trace of its own (a request that carries no `traceparent`), as its
 * `OTEL_TRACES_SAMPLER` says: `true` samples, `false` does not. `respectsParent`: whether a received
 * `traceparent`'s sampled flag decides instead (the `parentbased_*` samplers).
 */
export interface RootDecision {
  sampleRoot(): boolean;
  respectsParent: boolean;
}

let decision: RootDecision = { sampleRoot: () => true, respectsParent: true };

/** Called by `startTracing` / its shutdown only. */
export function setTracingActive(on: boolean, rootDecision?: RootDecision): void {
  active = on;
  if (rootDecision) decision = rootDecision;
}

/**
 * Set in the context a sampled request's span starts from, so that the SDK's sampler records what
 * the request's own decision sampled (sdk.ts) instead of drawing again.
 */
export const DECIDED_SAMPLED = createContextKey('qa-platform decided sampled');

/**
 * The context of a request that is not sampled: a span context that records nothing, flagged not
 * sampled, so that what the request sends on carries `traceparent` with the flag off (downstream does
 * not sample it either) and what it calls makes no span at all (`inSpan` runs the function alone).
 * No span object, no sampler call, no exporter work: the unsampled path's whole cost is this context.
 */
function unsampledContext(parent: Context, traceId?: string): Context {
  const n = (unsampledCount = (unsampledCount % 0xffff_ffff_ffff) + 1).toString(16).padStart(16, '0');
  return trace.setSpanContext(parent, { traceId: traceId ?? `${UNSAMPLED_PREFIX}${n}`, spanId: n, traceFlags: TraceFlags.NONE, isRemote: false });
}

/**
 * Ids of this process's traces that are not sampled: a random half drawn at start and a count (unique
 * without a random draw per request; nothing is recorded under them, they only travel downstream).
 */
const UNSAMPLED_PREFIX = randomBytes(8).toString('hex');
let unsampledCount = 0;

/** Whether `ctx` is inside a trace that is not sampled (its spans would record nothing). */
function unsampled(ctx: Context): boolean {
  const sc = trace.getSpanContext(ctx);
  return sc !== undefined && (sc.traceFlags & TraceFlags.SAMPLED) === 0 && decision.respectsParent;
}

/** The active span when it belongs to a sampled trace (it may have ended: work a request left running). */
function sampledActiveSpan(): Span | undefined {
  const span = trace.getActiveSpan();
  return span !== undefined && (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0 ? span : undefined;
}

/** A `traceparent` header's sampled flag, or `undefined` when it is not a valid version-00 header. */
function sampledFlag(header: string | string[] | undefined): boolean | undefined {
  if (typeof header !== 'string' || header.length !== 55 || header.charCodeAt(2) !== 45 /* - */ || header.charCodeAt(52) !== 45) return undefined;
  const flags = Number.parseInt(header.slice(53), 16);
  return Number.isNaN(flags) ? undefined : (flags & 1) === 1;
}

/**
 * What a server that received `headers` does with the request's trace: `sampled` with the context its
 * span starts from (the received trace's, or a root marked decided), or `unsampled` with the context
 * the request runs in (no span). One decision per request, made before any span exists.
 */
export function requestTrace(headers: Record<string, string | string[] | undefined>): { sampled: boolean; parent: Context } {
  const received = headers.traceparent;
  const flag = decision.respectsParent ? sampledFlag(received) : undefined;
  if (flag === false) return { sampled: false, parent: contextFrom(headers) };
  if (flag === true) return { sampled: true, parent: contextFrom(headers) };
  const parent = received === undefined || decision.respectsParent ? ROOT_CONTEXT : contextFrom(headers);
  if (!decision.sampleRoot()) {
    const traceId = trace.getSpanContext(parent)?.traceId;
    return { sampled: false, parent: unsampledContext(parent, traceId) };
  }
  return { sampled: true, parent: parent.setValue(DECIDED_SAMPLED, true) };
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
  const from = parent ?? context.active();
  // Inside a trace that is not sampled, no span: the function runs in that trace's context.
  if (unsampled(from)) return parent === undefined ? fn() : context.with(parent, fn);
  return runSpan(name, { kind, attributes }, from, fn);
}

/** `fn` in a new active span started from `from`, ended when `fn` settles and failed when it throws. */
function runSpan<T>(name: string, options: SpanOptions, from: Context, fn: () => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(name, options, from, async (span) => {
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
 * Runs `fn` in a span continuing the trace recorded as `traceparent` (an event's `metadata.traceparent`, a
 * webhook delivery's): what reacts to a recorded fact joins the trace of the request behind it, and what
 * it appends records that trace in turn (`eventMetadata`). A trace recorded not sampled runs `fn` in it
 * without a span (as `inSpan`); none recorded (an event of before, or of untraced work), `fn` runs in a
 * trace of its own, never in the caller's. Off, only `fn`.
 */
export function inTraceOf<T>(traceparent: unknown, name: string, attributes: Attributes, fn: () => Promise<T>, kind: SpanKind = SpanKind.INTERNAL): Promise<T> {
  if (!active) return fn();
  return inSpan(name, attributes, fn, kind, typeof traceparent === 'string' ? contextFrom({ traceparent }) : ROOT_CONTEXT);
}

/**
 * Where a timer tick's work runs, decided as a request without a `traceparent` is (the sampler's root
 * draw, before any span exists): recorded, a new root span `name` started at `startTime` and the context
 * it is active in; not recorded, no span and a context that says so (what the work calls makes none).
 */
export function tickRoot(name: string, attributes: Attributes, startTime: number): { context: Context; span?: Span } {
  if (!decision.sampleRoot()) return { context: unsampledContext(ROOT_CONTEXT) };
  const decided = ROOT_CONTEXT.setValue(DECIDED_SAMPLED, true);
  const span = tracer().startSpan(name, { kind: SpanKind.INTERNAL, attributes, startTime }, decided);
  return { context: trace.setSpan(decided, span), span };
}

/**
 * Most links one span carries (`inLinkedSpan`): a batch of 500 events appended by 500 sampled requests
 * links the first 32 of those traces, in the order given.
 */
export const MAX_SPAN_LINKS = 32;

/** Links to the sampled traces among `traceparents` (each once, at most `MAX_SPAN_LINKS`), and how many sampled ones were left out. */
function sampledLinks(traceparents: Iterable<unknown>): { links: Link[]; unlinked: number } {
  const seen = new Set<string>();
  const links: Link[] = [];
  let unlinked = 0;
  for (const traceparent of traceparents) {
    // A trace not sampled recorded nothing to go to; a repeated one (the events of one command) is one link.
    if (typeof traceparent !== 'string' || sampledFlag(traceparent) !== true || seen.has(traceparent)) continue;
    seen.add(traceparent);
    if (links.length === MAX_SPAN_LINKS) {
      unlinked += 1;
      continue;
    }
    const spanContext = trace.getSpanContext(contextFrom({ traceparent }));
    if (spanContext) links.push({ context: spanContext });
  }
  return { links, unlinked };
}

/**
 * Runs `fn` in a span of a trace of its own, linked to the sampled traces among `traceparents` (the
 * events a projection batch applies: a trace viewer goes from each write to the work it caused), at
 * most `MAX_SPAN_LINKS` of them. Decided before any span exists, as a request is: recorded when one of
 * those traces was sampled (under a `parentbased_*` sampler, as a child of it would be), else by the
 * sampler's root draw; not recorded, `fn` runs alone, with no span at all. Off, only `fn`.
 */
export function inLinkedSpan<T>(name: string, attributes: Attributes, traceparents: Iterable<unknown>, fn: () => Promise<T>): Promise<T> {
  if (!active) return fn();
  // Under a `parentbased_*` sampler the links decide first; under the others only the root draw does.
  const linked = decision.respectsParent ? sampledLinks(traceparents) : null;
  if (!linked?.links.length && !decision.sampleRoot()) return fn();
  const { links, unlinked } = linked ?? sampledLinks(traceparents);
  const all = unlinked > 0 ? { ...attributes, 'links.unlinked': unlinked } : attributes;
  return runSpan(name, { kind: SpanKind.INTERNAL, attributes: all, links }, ROOT_CONTEXT.setValue(DECIDED_SAMPLED, true), fn);
}

/**
 * As `inSpan`, inside a trace only: a call made outside any (a screencast's frame acknowledgement, a
 * health reading) starts no trace of its own. For the device calls, the leaves of a request's trace.
 */
export function inChildSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T>, kind: SpanKind = SpanKind.CLIENT): Promise<T> {
  if (!active || sampledActiveSpan() === undefined) return fn();
  return inSpan(name, attributes, fn, kind);
}

/** Adds `attributes` to the active span, and marks it failed with `error` when given; nothing when off. */
export function markActiveSpan(attributes: Attributes, error?: string): void {
  if (!active) return;
  const span = sampledActiveSpan();
  if (!span) return;
  span.setAttributes(attributes);
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
 * `fn` bound to the trace active now, wherever it is called later: a request's retry that a timer runs
 * (a WebDriver request waiting for a device) stays in that request's trace. Off, `fn` itself.
 */
export function boundToTrace<F extends (...args: never[]) => unknown>(fn: F): F {
  return active ? context.bind(context.active(), fn) : fn;
}

/**
 * `setInterval` whose ticks run outside any trace, wherever it is called: a timer set while a request's
 * span is active (a sweeper started lazily, a lease renewal, a poller) would otherwise run every later
 * tick inside that request's trace, which then never ends. Off, plain `setInterval`.
 */
export function setIntervalOutsideTrace(fn: () => void, everyMs: number): NodeJS.Timeout {
  return outsideTrace(() => setInterval(fn, everyMs));
}

/**
 * `trace_id` and `span_id` of the active span, for a log line (pino's `mixin`, which merges the line
 * into the object returned: a new one each time); nothing outside a trace or when off.
 */
export function logTraceFields(): { trace_id?: string; span_id?: string } {
  // A trace that is not sampled has nothing to find by its id.
  const span = active ? sampledActiveSpan() : undefined;
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

export { SpanKind, SpanStatusCode, type Span, type Attributes };
