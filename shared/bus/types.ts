/**
 * The message bus port: fire-and-forget publish/subscribe, request/reply with a time-out, and durable
 * streams for messages that must survive a restart of either side (JetStream on NATS).
 * Subjects are dot-separated tokens; `*` matches one token, `>` the rest (NATS semantics everywhere).
 */
export interface BusMessage {
  subject: string;
  data: Uint8Array;
  headers?: Record<string, string>;
  /** Set on requests: where the reply goes. */
  reply?: string;
}

export interface BusSubscription {
  unsubscribe(): Promise<void>;
}

export interface DurableMessage extends BusMessage {
  /** Sequence number in the durable stream. */
  seq: number;
  /** Marks the message handled; unacknowledged messages are delivered again. */
  ack(): Promise<void>;
}

export interface MessageBus {
  readonly kind: 'memory' | 'nats';
  publish(subject: string, data: Uint8Array, headers?: Record<string, string>): Promise<void>;
  /** Handlers run one at a time per subscription. With `queue`, each message goes to one member of the group. */
  subscribe(
    subject: string,
    handler: (msg: BusMessage) => void | Promise<void>,
    options?: { queue?: string },
  ): Promise<BusSubscription>;
  /** Sends a request and resolves with the first reply; rejects with `BusTimeoutError` or `NoRespondersError`. */
  request(subject: string, data: Uint8Array, options?: { timeoutMs?: number; headers?: Record<string, string> }): Promise<BusMessage>;
  /** Answers a request received by a subscription handler. */
  respond(msg: BusMessage, data: Uint8Array, headers?: Record<string, string>): Promise<void>;
  /** Publishes to a durable stream, headers stored with it; resolves once the message is stored. */
  publishDurable(stream: string, subject: string, data: Uint8Array, headers?: Record<string, string>): Promise<{ seq: number }>;
  /**
   * Consumes a durable stream as the named durable consumer; delivery resumes after the last ack,
   * across restarts. Messages not acked are delivered again.
   */
  consumeDurable(
    stream: string,
    consumer: string,
    handler: (msg: DurableMessage) => void | Promise<void>,
    options?: { filterSubject?: string },
  ): Promise<BusSubscription>;
  close(): Promise<void>;
  /**
   * Whether the connection to the bus is up. While it is down, `request` fails at once with
   * `BusUnavailableError` (requests in flight when it drops fail too), instead of waiting for a reply
   * that cannot come.
   */
  readonly connected: boolean;
  /** Calls `listener` whenever the connection drops (`false`) or comes back (`true`); returns the unsubscribe. */
  onConnectionChange(listener: (connected: boolean) => void): () => void;
}

export class BusTimeoutError extends Error {
  constructor(readonly subject: string, options?: { cause?: unknown }) {
    super(`No reply on ${subject} in time`, options);
    this.name = 'BusTimeoutError';
  }
}

export class NoRespondersError extends Error {
  constructor(readonly subject: string, options?: { cause?: unknown }) {
    super(`No responders on ${subject}`, options);
    this.name = 'NoRespondersError';
  }
}

/** The bus connection is down (the message server is away); nothing can be sent until it reconnects. */
export class BusUnavailableError extends Error {
  constructor(readonly subject: string, options?: { cause?: unknown }) {
    super(`The message bus is not connected; nothing was sent on ${subject}`, options);
    this.name = 'BusUnavailableError';
  }
}
