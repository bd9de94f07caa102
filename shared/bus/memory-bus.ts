import { randomUUID } from 'node:crypto';
import { BusTimeoutError, NoRespondersError } from './types.js';
import type { BusMessage, BusSubscription, DurableMessage, MessageBus } from './types.js';
import { assertInStream, assertName, assertSubject, normalizeHeaders, streamSubjects, subjectMatches, busDefaults, handlerRunner, replySubject } from './subjects.js';
import type { DurableStreams, BusOptions } from './subjects.js';
import { SubjectIndex } from './subject-index.js';
import { tracedBus } from '../tracing/index.js';

export type MemoryBusOptions = BusOptions;


/** Feeds items to an async function one at a time, in order, never from the caller's own stack. */
class SerialQueue<T> {
  private items: T[] = [];
  private running = false;
  private stopped = false;

  constructor(private readonly run: (item: T) => Promise<void>) {}

  push(item: T): void {
    if (this.stopped) return;
    this.items.push(item);
    if (!this.running) {
      this.running = true;
      queueMicrotask(() => void this.drain());
    }
  }

  stop(): void {
    this.stopped = true;
    this.items = [];
  }

  private async drain(): Promise<void> {
    for (let item = this.items.shift(); item !== undefined && !this.stopped; item = this.items.shift()) {
      await this.run(item);
    }
    this.running = false;
  }
}

interface CoreSubscription {
  pattern: string;
  queue: string | undefined;
  mailbox: SerialQueue<BusMessage>;
}

interface StoredMessage {
  seq: number;
  subject: string;
  data: Uint8Array;
  headers?: Record<string, string>;
}

interface ConsumerState {
  filterSubject: string | undefined;
  /** Highest stream sequence this consumer has looked at; new deliveries continue after it. */
  cursor: number;
  /** Delivered but not acknowledged: sequence → when it is due for redelivery. */
  pending: Map<number, number>;
  /** Wakes the delivery loops of this consumer (new message, a redelivery due, a close). */
  waiters: Set<() => void>;
}

interface StreamState {
  /** `messages[seq - 1]`; nothing is ever removed, like a stream with no limits. */
  messages: StoredMessage[];
  consumers: Map<string, ConsumerState>;
}

/** The next message for a consumer: a redelivery that is due first, else the next new one. */
function nextDelivery(stream: StreamState, consumer: ConsumerState, ackWaitMs: number): StoredMessage | undefined {
  const now = Date.now();
  let due: number | undefined;
  for (const [seq, deadline] of consumer.pending) {
    if (deadline <= now && (due === undefined || seq < due)) due = seq;
  }
  if (due !== undefined) {
    consumer.pending.set(due, now + ackWaitMs);
    return stream.messages[due - 1];
  }
  while (consumer.cursor < stream.messages.length) {
    const msg = stream.messages[consumer.cursor];
    consumer.cursor += 1;
    if (msg && (!consumer.filterSubject || subjectMatches(consumer.filterSubject, msg.subject))) {
      consumer.pending.set(msg.seq, now + ackWaitMs);
      return msg;
    }
  }
  return undefined;
}

/** Resolves on the next wake-up or when the earliest unacked message falls due. */
function waitForWork(consumer: ConsumerState): Promise<void> {
  return new Promise((resolve) => {
    let earliest = Infinity;
    for (const deadline of consumer.pending.values()) earliest = Math.min(earliest, deadline);
    let timer: NodeJS.Timeout | undefined;
    const wake = (): void => {
      if (timer) clearTimeout(timer);
      consumer.waiters.delete(wake);
      resolve();
    };
    if (earliest !== Infinity) {
      timer = setTimeout(wake, Math.max(0, earliest - Date.now()));
      // An idle in-process bus must not keep the process alive.
      timer.unref();
    }
    consumer.waiters.add(wake);
  });
}

function wakeAll(consumer: ConsumerState): void {
  for (const wake of [...consumer.waiters]) wake();
}

// Each receiver gets its own copy, as it would from a socket, so one handler's changes stay its own.
function copy(subject: string, data: Uint8Array, headers?: Record<string, string>, reply?: string): BusMessage {
  const msg: BusMessage = { subject, data: data.slice() };
  if (headers) msg.headers = { ...headers };
  if (reply) msg.reply = reply;
  return msg;
}

/** What the parts of one in-process bus share: whether it is open, and how to stop what it runs. */
interface MemoryBusLife {
  assertOpen(): void;
  stoppers: Set<() => void>;
  run: ReturnType<typeof handlerRunner>;
}

/** Core subjects: publish/subscribe with queue groups, and request/reply. */
function memoryCore(life: MemoryBusLife, requestTimeoutMs: number) {
  const subscriptions = new SubjectIndex<CoreSubscription>();
  const roundRobin = new Map<string, number>();
  const replies = new Map<string, { settle: (msg: BusMessage) => void; fail: (err: Error) => void }>();

  function route(subject: string, data: Uint8Array, headers?: Record<string, string>, reply?: string): void {
    replies.get(subject)?.settle(copy(subject, data, headers));
    const groups = new Map<string, CoreSubscription[]>();
    for (const sub of subscriptions.match(subject)) {
      if (sub.queue === undefined) {
        sub.mailbox.push(copy(subject, data, headers, reply));
      } else {
        const members = groups.get(sub.queue) ?? [];
        members.push(sub);
        groups.set(sub.queue, members);
      }
    }
    for (const [queue, members] of groups) {
      const turn = roundRobin.get(queue) ?? 0;
      roundRobin.set(queue, turn + 1);
      const member = members[turn % members.length];
      member?.mailbox.push(copy(subject, data, headers, reply));
    }
  }

  const methods: Pick<MessageBus, 'publish' | 'subscribe' | 'request' | 'respond'> = {
    async publish(subject, data, headers) {
      life.assertOpen();
      assertSubject(subject, false);
      route(subject, data, normalizeHeaders(headers));
    },
    async subscribe(subject, handler, subscribeOptions) {
      life.assertOpen();
      assertSubject(subject, true);
      const sub: CoreSubscription = { pattern: subject, queue: subscribeOptions?.queue, mailbox: new SerialQueue((msg) => life.run(handler, msg)) };
      subscriptions.add(subject, sub);
      const stop = (): void => {
        subscriptions.delete(sub);
        sub.mailbox.stop();
        life.stoppers.delete(stop);
      };
      life.stoppers.add(stop);
      return { unsubscribe: async () => stop() };
    },
    async request(subject, data, requestOptions) {
      life.assertOpen();
      assertSubject(subject, false);
      if (!subscriptions.matches(subject)) throw new NoRespondersError(subject);
      const inbox = `_INBOX.${randomUUID().replaceAll('-', '')}`;
      return new Promise<BusMessage>((resolve, reject) => {
        const timer = setTimeout(() => {
          replies.delete(inbox);
          reject(new BusTimeoutError(subject));
        }, requestOptions?.timeoutMs ?? requestTimeoutMs);
        const settled = (): void => {
          clearTimeout(timer);
          replies.delete(inbox);
        };
        replies.set(inbox, {
          settle: (msg) => {
            settled();
            resolve(msg);
          },
          fail: (err) => {
            settled();
            reject(err);
          },
        });
        route(subject, data, normalizeHeaders(requestOptions?.headers), inbox);
      });
    },
    async respond(msg, data, headers) {
      life.assertOpen();
      route(replySubject(msg), data, normalizeHeaders(headers));
    },
  };
  /** Fails every request still waiting for its reply (the bus closes). */
  const failWaiting = () => {
    for (const waiting of [...replies.values()]) waiting.fail(new Error('The bus was closed before the reply came'));
  };
  return { methods, failWaiting };
}

/** Durable streams kept in memory, with consumers that resume after their last ack. */
function memoryDurable(life: MemoryBusLife, declared: DurableStreams, ackWaitMs: number): Pick<MessageBus, 'publishDurable' | 'consumeDurable'> {
  const streams = new Map<string, StreamState>();

  function streamState(name: string): StreamState {
    streamSubjects(declared, name);
    let state = streams.get(name);
    if (!state) {
      state = { messages: [], consumers: new Map() };
      streams.set(name, state);
    }
    return state;
  }

  return {
    async publishDurable(stream, subject, data, headers) {
      life.assertOpen();
      assertInStream(declared, stream, subject);
      const state = streamState(stream);
      const seq = state.messages.length + 1;
      const kept = normalizeHeaders(headers);
      state.messages.push({ seq, subject, data: data.slice(), ...(kept ? { headers: kept } : {}) });
      for (const consumer of state.consumers.values()) wakeAll(consumer);
      return { seq };
    },

    async consumeDurable(stream, consumerName, handler, consumeOptions) {
      life.assertOpen();
      assertName('consumer', consumerName);
      const filterSubject = consumeOptions?.filterSubject;
      if (filterSubject !== undefined) assertSubject(filterSubject, true);
      const state = streamState(stream);
      let consumer = state.consumers.get(consumerName);
      if (!consumer) {
        consumer = { filterSubject, cursor: 0, pending: new Map(), waiters: new Set() };
        state.consumers.set(consumerName, consumer);
      } else {
        // Re-creating a durable consumer with another filter updates it, as JetStream does; the position stays.
        consumer.filterSubject = filterSubject;
      }
      const own = consumer;
      let active = true;

      const loop = async (): Promise<void> => {
        while (active) {
          const stored = nextDelivery(state, own, ackWaitMs);
          if (!stored) {
            await waitForWork(own);
            continue;
          }
          const msg: DurableMessage = {
            subject: stored.subject,
            data: stored.data.slice(),
            ...(stored.headers ? { headers: { ...stored.headers } } : {}),
            seq: stored.seq,
            ack: async () => {
              own.pending.delete(stored.seq);
            },
          };
          await life.run(handler, msg);
        }
      };

      const stop = (): void => {
        active = false;
        life.stoppers.delete(stop);
        wakeAll(own);
      };
      life.stoppers.add(stop);
      queueMicrotask(() => void loop());
      return { unsubscribe: async () => stop() };
    },
  };
}

/**
 * An in-process bus with NATS semantics: wildcard subjects, queue groups (round robin), request/reply,
 * and durable streams kept in memory whose consumers resume after the last ack for the life of the bus.
 * When the process traces, it carries W3C trace context in message headers as the NATS bus does
 * (shared/tracing/bus.ts): a handler continues the trace of what was sent.
 */
export function createMemoryBus(options: MemoryBusOptions = {}): MessageBus {
  const { streams: declared, ackWaitMs, requestTimeoutMs, onError } = busDefaults(options);
  let closed = false;
  const life: MemoryBusLife = {
    assertOpen() {
      if (closed) throw new Error('The bus is closed');
    },
    stoppers: new Set(),
    run: handlerRunner(onError),
  };
  const core = memoryCore(life, requestTimeoutMs);

  return tracedBus<BusMessage, MessageBus>({
    kind: 'memory',

    // In-process: there is no connection to lose.
    get connected() {
      return !closed;
    },

    onConnectionChange() {
      return () => undefined;
    },

    ...core.methods,
    ...memoryDurable(life, declared, ackWaitMs),

    async close() {
      if (closed) return;
      closed = true;
      for (const stop of [...life.stoppers]) stop();
      core.failWaiting();
    },
  });
}
