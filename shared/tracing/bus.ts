import { carriesTrace, contextFrom, inSpan, outsideTrace, SpanKind, traceHeaders, tracingActive } from './spans.js';

/** What of a message the bus's tracing reads (the bus's own `BusMessage`, which imports this module). */
interface Message {
  subject: string;
  headers?: Record<string, string>;
  reply?: string;
}

/** The part of the message bus port (shared/bus) that carries trace context. */
interface Bus<M extends Message> {
  /** `nats`, or `memory` for the in-process bus of an embedded installation. */
  readonly kind?: string;
  publish(subject: string, data: Uint8Array, headers?: Record<string, string>): Promise<void>;
  request(subject: string, data: Uint8Array, options?: { timeoutMs?: number; headers?: Record<string, string> }): Promise<M>;
  subscribe(subject: string, handler: (msg: M) => void | Promise<void>, options?: { queue?: string }): Promise<unknown>;
  publishDurable(stream: string, subject: string, data: Uint8Array, headers?: Record<string, string>): Promise<{ seq: number }>;
  consumeDurable(stream: string, consumer: string, handler: (msg: M & { seq: number }) => void | Promise<void>, options?: { filterSubject?: string }): Promise<unknown>;
}

/** A subject as a span name: tokens that are ids (holding a digit, 8 characters or more) become `*`. */
export function subjectTemplate(subject: string): string {
  return subject
    .split('.')
    .map((t) => (t.length >= 8 && /\d/.test(t) ? '*' : t))
    .join('.');
}

/** `headers` with the active span's `traceparent` added (the same object when there is none to add). */
function withTrace(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  const trace = traceHeaders();
  return trace.traceparent === undefined ? headers : { ...headers, ...trace };
}

/**
 * Runs a received message's handler in the trace the message carries (a consumer span continuing it,
 * a server span for a request), or outside any trace when it carries none.
 */
function handledInTrace<M extends Message>(prefix: string, system: string, msg: M, handler: () => void | Promise<void>): void | Promise<void> {
  if (!carriesTrace(msg.headers)) return outsideTrace(handler);
  const kind = msg.reply ? SpanKind.SERVER : SpanKind.CONSUMER;
  return inSpan(`${prefix} process ${subjectTemplate(msg.subject)}`, { 'messaging.system': system, 'messaging.destination.name': msg.subject, 'messaging.operation.type': 'process' }, async () => handler(), kind, contextFrom(msg.headers));
}

/**
 * `bus` with W3C trace context in its message headers when this process traces: what is published or
 * requested inside a trace carries its `traceparent` (a request is a client span of its own), and a
 * handler given a message that carries one runs in a consumer span continuing it, so that whatever it
 * does (a device call, a reply, a log line) is in the sender's trace. Messages outside a trace (heartbeats)
 * carry nothing and their handlers run outside any trace: the in-process bus of an embedded installation
 * (`kind: 'memory'`, spans named `bus …`) would otherwise run them in whatever context its delivery loop
 * was started from. A durable stream's messages carry it the same way, stored with them: a consumer that
 * handles one later, in another process or after a restart, continues the publisher's trace. NATS's
 * spans are named `nats …`. Off, `bus` itself is returned.
 */
export function tracedBus<M extends Message, B extends Bus<M>>(bus: B): B {
  if (!tracingActive()) return bus;
  const system = bus.kind === 'memory' ? 'memory' : 'nats';
  const prefix = system === 'memory' ? 'bus' : 'nats';
  const traced = Object.create(bus) as B;
  return Object.assign(traced, {
    publish: (subject: string, data: Uint8Array, headers?: Record<string, string>) => bus.publish(subject, data, withTrace(headers)),
    request: (subject: string, data: Uint8Array, options: { timeoutMs?: number; headers?: Record<string, string> } = {}) =>
      inSpan(`${prefix} request ${subjectTemplate(subject)}`, { 'messaging.system': system, 'messaging.destination.name': subject, 'messaging.operation.type': 'send' }, () =>
        bus.request(subject, data, { ...options, headers: withTrace(options.headers)! }),
      SpanKind.CLIENT),
    subscribe: (subject: string, handler: (msg: M) => void | Promise<void>, options?: { queue?: string }) =>
      bus.subscribe(subject, (msg: M) => handledInTrace(prefix, system, msg, () => handler(msg)), options),
    publishDurable: (stream: string, subject: string, data: Uint8Array, headers?: Record<string, string>) => bus.publishDurable(stream, subject, data, withTrace(headers)),
    consumeDurable: (stream: string, consumer: string, handler: (msg: M & { seq: number }) => void | Promise<void>, options?: { filterSubject?: string }) =>
      bus.consumeDurable(stream, consumer, (msg: M & { seq: number }) => handledInTrace(prefix, system, msg, () => handler(msg)), options),
  });
}
