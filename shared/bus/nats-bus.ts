import {
  connect,
  headers as natsHeaders,
  nanos,
  RequestError,
  TimeoutError,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
} from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiError,
  jetstream,
  jetstreamManager,
  StorageType,
  type ConsumerMessages,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { BusTimeoutError, BusUnavailableError, NoRespondersError } from './types.js';
import type { BusMessage, DurableMessage, MessageBus } from './types.js';
import { assertInStream, assertName, assertSubject, normalizeHeaders, streamSubjects, busDefaults, handlerRunner, replySubject } from './subjects.js';
import type { DurableStreams, BusOptions } from './subjects.js';
import { qaMetrics } from '../metrics/index.js';
import { tracedBus } from '../tracing/index.js';

export interface NatsBusOptions extends BusOptions {
  /** Connection name shown in the server's monitoring. */
  name?: string;
  /** Pause between reconnection attempts to the same server. */
  reconnectTimeWaitMs?: number;
  /**
   * Where replies to this connection's requests arrive (default `_INBOX`). A device host uses its own
   * (`_INBOX_<hostId>`), so NATS authorisation can let it subscribe to its own replies and no one else's.
   */
  inboxPrefix?: string;
}

/**
 * The servers of a `NATS_URL` (comma-separated) and the user and password written in them
 * (`nats://user:password@host:4222`): the client takes credentials as options, not from the URL.
 */
export function natsServers(url: string): { servers: string[]; user?: string; pass?: string } {
  let user: string | undefined;
  let pass: string | undefined;
  const servers = url
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const at = s.lastIndexOf('@');
      if (at < 0) return s;
      const scheme = s.match(/^[a-z]+:\/\//i)?.[0] ?? '';
      const [u, p] = s.slice(scheme.length, at).split(':');
      user = decodeURIComponent(u ?? '');
      pass = p === undefined ? undefined : decodeURIComponent(p);
      return scheme + s.slice(at + 1);
    });
  return { servers, ...(user ? { user } : {}), ...(pass !== undefined ? { pass } : {}) };
}

const CLOSE_DRAIN_MS = 2_000;
const PING_INTERVAL_MS = 5_000;
// JetStream API error codes (nats-server/server/errors.json).
const STREAM_NAME_IN_USE = 10058;
const CONSUMER_ALREADY_EXISTS = 10148;

function toNatsHeaders(headers: Record<string, string> | undefined): MsgHdrs | undefined {
  const given = normalizeHeaders(headers);
  if (!given) return undefined;
  const h = natsHeaders();
  for (const [key, value] of Object.entries(given)) h.set(key, value);
  return h;
}

// JetStream stamps its own `Nats-*` headers on stored messages; callers never set those, so they are dropped.
function fromNatsHeaders(h: MsgHdrs | undefined, dropServerHeaders: boolean): Record<string, string> | undefined {
  if (!h) return undefined;
  const out: Record<string, string> = {};
  for (const key of h.keys()) {
    if (dropServerHeaders && /^nats-/i.test(key)) continue;
    out[key] = h.get(key);
  }
  return normalizeHeaders(out);
}

function toBusMessage(m: Msg): BusMessage {
  const msg: BusMessage = { subject: m.subject, data: m.data };
  const headers = fromNatsHeaders(m.headers, false);
  if (headers) msg.headers = headers;
  if (m.reply) msg.reply = m.reply;
  return msg;
}

function toDurableMessage(m: JsMsg): DurableMessage {
  const msg: DurableMessage = {
    subject: m.subject,
    data: m.data,
    seq: m.seq,
    // Waits for the server's confirmation, so a resolved ack is one that survives a restart.
    ack: async () => {
      await m.ackAck();
    },
  };
  const headers = fromNatsHeaders(m.headers, true);
  if (headers) msg.headers = headers;
  return msg;
}

function isNoResponders(err: unknown): boolean {
  return err instanceof RequestError && err.isNoResponders();
}

/** Created on first durable use, so a bus used only for core subjects works without JetStream. */
function jetStreamSetup(nc: NatsConnection, declared: DurableStreams, ackWaitMs: number) {
  let manager: Promise<JetStreamManager> | undefined;
  const ensuredStreams = new Map<string, Promise<void>>();

  function jsm(): Promise<JetStreamManager> {
    manager ??= jetstreamManager(nc).catch((err: unknown) => {
      manager = undefined;
      throw err;
    });
    return manager;
  }

  async function createStream(name: string, subjects: readonly string[]): Promise<void> {
    const m = await jsm();
    try {
      await m.streams.add({ name, subjects: [...subjects], storage: StorageType.File });
    } catch (err) {
      if (!(err instanceof JetStreamApiError && err.code === STREAM_NAME_IN_USE)) throw err;
      // The stream exists with another configuration (another service, an older release): keep it and
      // only widen its subjects, never narrow what others may rely on.
      const info = await m.streams.info(name);
      const current = info.config.subjects ?? [];
      const merged = [...new Set([...current, ...subjects])];
      if (merged.length !== current.length) await m.streams.update(name, { subjects: merged });
    }
  }

  function ensureStream(name: string): Promise<void> {
    let ready = ensuredStreams.get(name);
    if (!ready) {
      ready = createStream(name, streamSubjects(declared, name));
      ensuredStreams.set(name, ready);
      ready.catch(() => ensuredStreams.delete(name));
    }
    return ready;
  }

  async function ensureConsumer(stream: string, consumer: string, filterSubject: string | undefined): Promise<void> {
    const m = await jsm();
    const ackWait = nanos(ackWaitMs);
    try {
      await m.consumers.add(stream, {
        durable_name: consumer,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ack_wait: ackWait,
        filter_subject: filterSubject,
      });
    } catch (err) {
      // Servers from 2.10 refuse to "create" an existing consumer with another configuration; older ones update it.
      if (!(err instanceof JetStreamApiError && err.code === CONSUMER_ALREADY_EXISTS)) throw err;
      await m.consumers.update(stream, consumer, { ack_wait: ackWait, filter_subject: filterSubject });
    }
  }

  /** Forgets that a stream was made (it was deleted behind our back): the next use makes it again. */
  const forgetStream = (name: string) => ensuredStreams.delete(name);
  return { ensureStream, ensureConsumer, forgetStream };
}

/** What the parts of one NATS bus share. */
interface NatsBusLife {
  nc: NatsConnection;
  assertOpen(): void;
  readonly connected: boolean;
  /** Requests waiting for a reply: they fail at once when the connection drops. */
  inFlight: Set<(err: Error) => void>;
  stoppers: Set<() => Promise<void>>;
  run: ReturnType<typeof handlerRunner>;
  onError: (err: unknown, subject: string) => void;
}

/** Follows the connection's state: tells the listeners, and fails the requests in flight when it drops. */
function watchConnection(life: { nc: NatsConnection; connected: boolean; inFlight: Set<(err: Error) => void>; onError: NatsBusLife['onError'] }, listeners: Set<(connected: boolean) => void>): void {
  void (async () => {
    for await (const status of life.nc.status()) {
      const now: boolean = status.type === 'disconnect' ? false : status.type === 'reconnect' ? true : life.connected;
      if (now === life.connected) continue;
      life.connected = now;
      if (!now) qaMetrics.natsDisconnects.inc();
      if (!now) for (const fail of [...life.inFlight]) fail(new BusUnavailableError('(in flight)'));
      for (const listener of [...listeners]) {
        try {
          listener(now);
        } catch (err) {
          life.onError(err, 'connection');
        }
      }
    }
  })().catch((err: unknown) => life.onError(err, 'connection'));
}

/** Reads a subscription's messages into the handler until it stops; what fails is told to `onError`. */
function pump<M>(life: NatsBusLife, source: AsyncIterable<M>, label: string, deliver: (m: M) => Promise<void>, active: () => boolean): void {
  void (async () => {
    try {
      for await (const m of source) {
        if (!active()) break;
        await deliver(m);
      }
    } catch (err) {
      life.onError(err, label);
    }
  })();
}

/** Core subjects: publish/subscribe with queue groups, and request/reply. */
function natsCore(life: NatsBusLife, requestTimeoutMs: number): Pick<MessageBus, 'publish' | 'subscribe' | 'request' | 'respond'> {
  const { nc } = life;
  return {
    async publish(subject, data, headers) {
      life.assertOpen();
      assertSubject(subject, false);
      nc.publish(subject, data, { headers: toNatsHeaders(headers) });
    },

    async subscribe(subject, handler, subscribeOptions) {
      life.assertOpen();
      assertSubject(subject, true);
      const sub = nc.subscribe(subject, { queue: subscribeOptions?.queue });
      let active = true;
      pump(life, sub, subject, (m) => life.run(handler, toBusMessage(m)), () => active);
      const stop = async (): Promise<void> => {
        active = false;
        life.stoppers.delete(stop);
        if (!sub.isClosed()) sub.unsubscribe();
      };
      life.stoppers.add(stop);
      // The server must know the interest before we return, or a publish right after could miss it.
      // While disconnected the flush would wait for the server; the client restates the interest on reconnection.
      if (life.connected) await nc.flush();
      return { unsubscribe: stop };
    },

    async request(subject, data, requestOptions) {
      life.assertOpen();
      assertSubject(subject, false);
      // Sent now it would wait in the client's buffer until the server is back, and time out there.
      if (!life.connected) throw new BusUnavailableError(subject);
      let fail!: (err: Error) => void;
      const dropped = new Promise<never>((_, reject) => (fail = reject));
      life.inFlight.add(fail);
      const started = performance.now();
      const took = (outcome: string) => qaMetrics.natsRequestDuration.observe({ outcome }, (performance.now() - started) / 1000);
      try {
        const reply = await Promise.race([nc.request(subject, data, { timeout: requestOptions?.timeoutMs ?? requestTimeoutMs, headers: toNatsHeaders(requestOptions?.headers) }), dropped]);
        took('ok');
        return toBusMessage(reply);
      } catch (err) {
        if (err instanceof BusUnavailableError) {
          took('unavailable');
          throw new BusUnavailableError(subject, { cause: err });
        }
        if (isNoResponders(err)) {
          took('no_responders');
          throw new NoRespondersError(subject, { cause: err });
        }
        if (err instanceof TimeoutError || (err instanceof RequestError && err.cause instanceof TimeoutError)) {
          took('timeout');
          throw new BusTimeoutError(subject, { cause: err });
        }
        took('error');
        throw err;
      } finally {
        life.inFlight.delete(fail);
      }
    },

    async respond(msg, data, headers) {
      life.assertOpen();
      nc.publish(replySubject(msg), data, { headers: toNatsHeaders(headers) });
    },
  };
}

/** Durable streams on JetStream, with durable pull consumers. */
function natsDurable(life: NatsBusLife, declared: DurableStreams, ackWaitMs: number): Pick<MessageBus, 'publishDurable' | 'consumeDurable'> {
  const js = jetstream(life.nc);
  const setup = jetStreamSetup(life.nc, declared, ackWaitMs);
  return {
    async publishDurable(stream, subject, data, headers) {
      life.assertOpen();
      assertInStream(declared, stream, subject);
      const natsHeaders = toNatsHeaders(headers);
      const publishOnce = async (): Promise<{ seq: number }> => {
        await setup.ensureStream(stream);
        const ack = await js.publish(subject, data, { expect: { streamName: stream }, ...(natsHeaders ? { headers: natsHeaders } : {}) });
        return { seq: ack.seq };
      };
      try {
        return await publishOnce();
      } catch (err) {
        // Nobody stores the subject: the stream was deleted behind our back (an operator, a test); create it again.
        if (!isNoResponders(err instanceof Error ? err.cause : undefined)) throw err;
        setup.forgetStream(stream);
        return publishOnce();
      }
    },

    async consumeDurable(stream, consumer, handler, consumeOptions) {
      life.assertOpen();
      assertName('consumer', consumer);
      const filterSubject = consumeOptions?.filterSubject;
      if (filterSubject !== undefined) assertSubject(filterSubject, true);
      await setup.ensureStream(stream);
      await setup.ensureConsumer(stream, consumer, filterSubject);
      const messages: ConsumerMessages = await (await js.consumers.get(stream, consumer)).consume();
      let active = true;
      // Messages buffered when the consumer stops stay unacked; the server delivers them again.
      pump(life, messages, stream, (m) => life.run(handler, toDurableMessage(m)), () => active);
      const stop = async (): Promise<void> => {
        active = false;
        life.stoppers.delete(stop);
        await messages.close();
      };
      life.stoppers.add(stop);
      return { unsubscribe: stop };
    },
  };
}

/**
 * Connects a bus to NATS: core subjects for publish/subscribe and request/reply, JetStream for durable
 * streams with durable pull consumers. The connection reconnects by itself, without limit.
 */
export async function connectNatsBus(url: string, options: NatsBusOptions = {}): Promise<MessageBus> {
  const { streams: declared, ackWaitMs, requestTimeoutMs, onError } = busDefaults(options);

  const nc: NatsConnection = await connect({
    ...natsServers(url),
    ...(options.inboxPrefix ? { inboxPrefix: options.inboxPrefix } : {}),
    name: options.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: options.reconnectTimeWaitMs ?? 1_000,
    // A server that vanished without closing the socket (a partition) is noticed in about 15 s, not minutes.
    pingInterval: PING_INTERVAL_MS,
    maxPingOut: 2,
  });
  let closed = false;
  const connectionListeners = new Set<(connected: boolean) => void>();
  const life: NatsBusLife & { connected: boolean } = {
    nc,
    connected: true,
    assertOpen() {
      if (closed) throw new Error('The bus is closed');
    },
    inFlight: new Set(),
    stoppers: new Set(),
    run: handlerRunner(onError),
    onError,
  };
  watchConnection(life, connectionListeners);

  return tracedBus<BusMessage, MessageBus>({
    kind: 'nats',

    get connected() {
      return life.connected && !closed;
    },

    onConnectionChange(listener) {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },

    ...natsCore(life, requestTimeoutMs),
    ...natsDurable(life, declared, ackWaitMs),

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...life.stoppers].map((stop) => stop()));
      // Draining flushes what was published; during an outage it would wait for ever, so it is bounded.
      let timer: NodeJS.Timeout | undefined;
      const bounded = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, CLOSE_DRAIN_MS);
      });
      await Promise.race([nc.drain().catch(() => undefined), bounded]);
      clearTimeout(timer);
      if (!nc.isClosed()) await nc.close();
    },
  });
}
