/**
 * Subject rules shared by both bus adapters, so the in-process bus refuses exactly what NATS would and
 * a program developed against one behaves the same on the other.
 */

/** Durable stream declarations: stream name → the subjects it stores (wildcards allowed). */
export type DurableStreams = Readonly<Record<string, readonly string[]>>;

// NATS forbids these in stream and consumer names because they become tokens of API subjects.
const NAME = /^[A-Za-z0-9_-]+$/;

/** Throws unless `subject` is a valid subject; `wildcards` allows `*` and a final `>` (subscriptions). */
export function assertSubject(subject: string, wildcards: boolean): void {
  const tokens = subject.split('.');
  tokens.forEach((token, i) => {
    const bad =
      token === '' ||
      /\s/.test(token) ||
      (token === '>' && (!wildcards || i !== tokens.length - 1)) ||
      (token === '*' && !wildcards) ||
      (token.length > 1 && (token.includes('*') || token.includes('>')));
    if (bad) throw new TypeError(`Invalid ${wildcards ? 'subscription ' : ''}subject "${subject}"`);
  });
}

/** True when `subject` (no wildcards) matches `pattern`: `*` one token, `>` one or more trailing tokens. */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    const token = p[i];
    if (token === '>') return s.length > i;
    if (i >= s.length) return false;
    if (token !== '*' && token !== s[i]) return false;
  }
  return p.length === s.length;
}

/** Throws unless `name` can name a stream or a durable consumer. */
export function assertName(kind: 'stream' | 'consumer', name: string): void {
  if (!NAME.test(name)) throw new TypeError(`Invalid ${kind} name "${name}": use letters, digits, "-" and "_"`);
}

/** The declared subjects of `stream`; throws when the stream was not declared to the bus. */
export function streamSubjects(streams: DurableStreams, stream: string): readonly string[] {
  assertName('stream', stream);
  const subjects = Object.hasOwn(streams, stream) ? streams[stream] : undefined;
  if (!subjects || subjects.length === 0) {
    throw new TypeError(`Durable stream "${stream}" is not declared; pass it in the bus options' streams`);
  }
  return subjects;
}

/** Throws unless `subject` belongs to the declared `stream`. */
export function assertInStream(streams: DurableStreams, stream: string, subject: string): void {
  assertSubject(subject, false);
  if (!streamSubjects(streams, stream).some((pattern) => subjectMatches(pattern, subject))) {
    throw new TypeError(`Subject "${subject}" is not part of durable stream "${stream}"`);
  }
}

/** Drops empty header sets so both adapters deliver `undefined` rather than `{}`. */
export function normalizeHeaders(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  return headers && Object.keys(headers).length > 0 ? { ...headers } : undefined;
}

/** Options both bus adapters take. */
export interface BusOptions {
  /** Durable streams this bus may use: name → subjects. */
  streams?: DurableStreams;
  /** How long a delivered durable message may stay unacknowledged before it is delivered again. */
  ackWaitMs?: number;
  /** Default time-out of `request`. */
  requestTimeoutMs?: number;
  /** Receives what handlers throw; a bus has no caller to hand it to. */
  onError?: (err: unknown, subject: string) => void;
}

/** `BusOptions` with their defaults filled in. */
export function busDefaults(options: BusOptions): Required<Omit<BusOptions, 'streams'>> & { streams: DurableStreams } {
  return {
    streams: options.streams ?? {},
    ackWaitMs: options.ackWaitMs ?? 30_000,
    requestTimeoutMs: options.requestTimeoutMs ?? 5_000,
    onError: options.onError ?? ((err, subject) => console.error(`bus handler for ${subject} failed`, err)),
  };
}

/** Runs a subscriber's handler; what it throws goes to `onError` with the message's subject, never back to the bus. */
export function handlerRunner(onError: (err: unknown, subject: string) => void) {
  return async <M extends { subject: string }>(handler: (msg: M) => void | Promise<void>, msg: M): Promise<void> => {
    try {
      await handler(msg);
    } catch (err) {
      onError(err, msg.subject);
    }
  };
}

/** Where the answer to a request goes; a message that is no request has no reply subject. */
export function replySubject(msg: { subject: string; reply?: string | undefined }): string {
  if (!msg.reply) throw new TypeError(`The message on ${msg.subject} is not a request; it has no reply subject`);
  return msg.reply;
}
