import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';

/** What every event caused by one HTTP request records about it. */
export interface RequestContext {
  /** The request id (`X-Request-Id`), the correlation id of the events it causes. */
  requestId: string;
  /** The client's address (the proxy's view of it with TRUST_PROXY). */
  clientAddress: string;
  /** The steps timed while handling it (`timed`), answered as its `Server-Timing` header. */
  timings?: string[];
  /** Set once an event it caused is committed (`noteCommitted`): from then on it has written something. */
  committed?: boolean;
}

/**
 * What one asynchronous path carries: the request it belongs to, and, in a process that traces, the
 * trace context it runs in (shared/tracing's context manager keeps it here). One asynchronous storage
 * for both: each one a process holds makes every promise it creates carry one more store.
 */
interface Frame {
  request?: RequestContext;
  trace?: unknown;
}

const storage = new AsyncLocalStorage<Frame>();

/**
 * Runs `fn` (the rest of a request's handling) with the request's context, and with `trace` as its trace
 * context when given (shared/tracing's, for a process that traces), else the one active now.
 */
export function withRequestContext<T>(context: RequestContext, fn: () => T, trace?: unknown): T {
  return storage.run({ request: context, trace: trace ?? storage.getStore()?.trace }, fn);
}

/** The context of the request being handled, if any (none in background work). */
export function currentRequest(): RequestContext | undefined {
  return storage.getStore()?.request;
}

/** Runs `fn(...args)` with `trace` as the trace context, in the same request (shared/tracing's context manager). */
export function withTraceContext<A extends unknown[], T>(trace: unknown, fn: (...args: A) => T, ...args: A): T {
  return storage.run({ request: storage.getStore()?.request, trace }, fn, ...args);
}

/** The trace context the current asynchronous path runs in, as `withTraceContext` set it. */
export function currentTraceContext(): unknown {
  return storage.getStore()?.trace;
}

/** Makes `trace` the trace context of the rest of the current asynchronous path (the context manager's `attach`). */
export function enterTraceContext(trace: unknown): void {
  storage.enterWith({ request: storage.getStore()?.request, trace });
}

/**
 * Records that the request being handled (if any) has committed an event: an answer that fails after
 * this point (a 503 because the read models lag behind) is not a request that did nothing, and its
 * idempotency key is kept rather than let go (shared/http/idempotency.ts).
 */
export function noteCommitted(): void {
  const context = storage.getStore()?.request;
  if (context) context.committed = true;
}

/**
 * Runs one step of a request's handling and records how long it took as a `Server-Timing` metric
 * (`name;dur=<ms>`), so a client (the console's marks, a benchmark, the browser's DevTools) sees where
 * a slow answer's time went. Outside a request it only runs the step. A failing step is recorded too.
 */
export async function timed<T>(name: string, step: () => Promise<T>): Promise<T> {
  const context = storage.getStore()?.request;
  if (!context) return step();
  const began = performance.now();
  try {
    return await step();
  } finally {
    (context.timings ??= []).push(`${name};dur=${(performance.now() - began).toFixed(1)}`);
  }
}

/** The `Server-Timing` header value of a request's timed steps, if any. */
export function serverTimingOf(context: RequestContext | undefined): string | undefined {
  return context?.timings?.length ? context.timings.join(', ') : undefined;
}
