import { performance } from 'node:perf_hooks';
import { findWebhook, orgWebhooksProjection, webhooksFor, type WebhookRow } from '#projections/org-webhooks/index.js';
import { projectionSchemaName } from '#projections/types.js';
import { Pauses } from '#shared/concurrency.js';
import { applySchema } from '#shared/db/index.js';
import type { RecordedEvent, Subscription } from '#shared/es/index.js';
import { qaMetrics } from '#shared/metrics/index.js';
import type { Platform } from '../../platform.js';
import {
  claimDue,
  DELIVERIES_SCHEMA,
  dispatchPosition,
  lastDeliveriesFailed,
  messageBody,
  pendingDeliveries,
  queueDelivery,
  recordAttempt,
  setDispatchPosition,
  withdrawDeliveries,
  type Attempt,
  type DueDelivery,
} from './deliveries.js';
import { sendWebhook } from './send.js';
import { signedHeaders } from './signature.js';
import type { WebhookSecrets } from './secrets.js';
import { inSpan, inTick, inTraceOf, markActiveSpan, outsideTrace, setIntervalOutsideTrace, SpanKind, traceHeaders, type Attributes } from '#shared/tracing/index.js';
import { consequenceOf, SOURCE_EVENT_TYPES, type Outgoing } from './sources.js';

/**
 * Runs `fn` in a span continuing the trace recorded with delivery `d` (the request behind its event);
 * a delivery that recorded none (an untraced event's) is a child of the sending round's span.
 */
function inDeliveryTrace<T>(d: DueDelivery, name: string, attributes: Attributes, fn: () => Promise<T>, kind?: SpanKind): Promise<T> {
  return d.traceparent === null ? inSpan(name, attributes, fn, kind) : inTraceOf(d.traceparent, name, attributes, fn, kind);
}

/** Most deliveries sent at once by one process. */
const BATCH = 20;

export interface DispatcherDeps {
  platform: Platform;
  /** Opens an endpoint's sealed secrets to sign an attempt. */
  secrets: WebhookSecrets;
  /** An endpoint whose last deliveries all failed: disable it and tell its owner. */
  onFailing: (webhook: WebhookRow, reason: string) => Promise<void>;
}

/**
 * Turns domain events into webhook deliveries and sends them. Intake: a catch-up subscription to
 * the event types webhooks follow, from its own position in the log; each event's messages are
 * queued in the same transaction that moves that position (the row is locked, so of two processes
 * one queues and the other sees the position moved). Sending: due deliveries are claimed with
 * `SKIP LOCKED`, signed (the endpoint's sealed secrets opened only for that), POSTed with a timeout,
 * and each attempt recorded; a failed one waits the next pause of `WEBHOOK_RETRY_SCHEDULE`, and after
 * the last it is failed. An endpoint whose secret does not open sends nothing: the attempt fails, saying why.
 */
export class WebhookDispatcher {
  private subscription: Subscription | null = null;
  private intake: Promise<void> | null = null;
  private poll: NodeJS.Timeout | null = null;
  private sending: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly pauses = new Pauses();
  private stopBacklog: () => void = () => {};

  constructor(private readonly deps: DispatcherDeps) {}

  private get platform() {
    return this.deps.platform;
  }

  async start(): Promise<void> {
    const { db, store, config } = this.platform;
    // In a split deployment the projections may start after this service: the endpoints' table (which
    // the sender joins) is made here too, as the runner makes it (CREATE ... IF NOT EXISTS).
    await applySchema(db, projectionSchemaName(orgWebhooksProjection), orgWebhooksProjection.schema);
    await applySchema(db, 'webhook_deliveries', DELIVERIES_SCHEMA);
    // A first start follows the log from its head: no endpoint existed before it.
    if ((await dispatchPosition(db)) === null) await db.query(`INSERT INTO webhook_dispatch (name, position) VALUES ('dispatcher', $1) ON CONFLICT (name) DO NOTHING`, [(await store.headPosition()).toString()]);
    const after = (await dispatchPosition(db))!;
    this.intake = this.follow(after);
    const every = Math.max(20, Math.min(1000, ...config.WEBHOOK_RETRY_SCHEDULE));
    this.poll = setIntervalOutsideTrace(() => this.wake(), every);
    this.poll.unref();
    this.wake();
    this.stopBacklog = qaMetrics.webhookBacklog.use(async () => [{ labels: {}, value: await pendingDeliveries(db) }]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopBacklog();
    if (this.poll) clearInterval(this.poll);
    this.pauses.wakeAll();
    await this.subscription?.close();
    await this.intake;
    await this.sending;
  }

  /** Sends what is due now (also when called while a round is running: another round follows). */
  wake(): void {
    if (this.stopped) return;
    if (this.sending) {
      this.again = true;
      return;
    }
    // Outside the trace of whoever woke it (a ping's request): each attempt joins its own delivery's trace.
    this.sending = outsideTrace(() => this.sendDue())
      .catch((err: unknown) => this.platform.logger.warn({ err }, 'sending webhooks failed'))
      .finally(() => (this.sending = null));
  }

  /**
   * Follows the event log from `after` (the subscription itself rides out the database's outages). A
   * failure to queue an event is retried, never skipped; a fault of the log itself is logged, and the
   * next start follows on from the position stored with the last queued event.
   */
  private async follow(after: bigint): Promise<void> {
    this.subscription = this.platform.store.subscribe({ after, filter: { eventTypes: SOURCE_EVENT_TYPES } });
    try {
      for await (const event of this.subscription) {
        await this.queue(event);
        if (this.stopped) return;
      }
    } catch (err) {
      if (!this.stopped) this.platform.logger.error({ err }, 'webhooks stopped following the event log; a restart follows on from its stored position');
    }
  }

  /** Queues one event's messages, retrying while the database is away, until it is done or the dispatcher stops. */
  private async queue(event: RecordedEvent): Promise<void> {
    for (let delay = 200; !this.stopped; delay = Math.min(delay * 2, 10_000)) {
      try {
        await this.take(event);
        return;
      } catch (err) {
        this.platform.logger.warn({ err, eventId: event.id, type: event.type }, 'queueing webhooks failed; trying again');
        await this.pauses.pause(delay);
      }
    }
  }

  /** Queues the messages one domain event causes, once, with the position past it. */
  private async take(event: RecordedEvent): Promise<void> {
    const { db, store, readModels } = this.platform;
    const { deliver, withdraw } = await consequenceOf(store, event);
    // Endpoints created before the event must be seen: wait for the read model to pass it.
    if (deliver.length > 0) await readModels.waitFor(event.position, { names: ['org-webhooks'] });
    const targets: { out: Outgoing; hook: WebhookRow }[] = [];
    for (const out of deliver) for (const hook of await webhooksFor(db, out.companyId, out.workspaceIds, out.event)) targets.push({ out, hook });
    await db.transaction(async (tx) => {
      const position = await dispatchPosition(tx, true);
      if (position !== null && position >= event.position) return;
      if (withdraw) await withdrawDeliveries(tx, withdraw);
      for (const { out, hook } of targets) {
        const body = messageBody(out.event, out.dueAt, out.data);
        await queueDelivery(tx, {
          webhookId: hook.id,
          companyId: hook.companyId,
          workspaceId: hook.workspaceId,
          key: out.key,
          event: out.event,
          body,
          subject: out.subject,
          createdAt: new Date(event.metadata.occurredAt),
          dueAt: out.dueAt,
          traceparent: typeof event.metadata.traceparent === 'string' ? event.metadata.traceparent : undefined,
        });
      }
      await setDispatchPosition(tx, event.position);
    });
    if (targets.length > 0) this.wake();
  }

  /**
   * Rounds of claiming what is due and sending it; a round that claimed deliveries is a span
   * (`webhooks.dispatch`, with how many), one that found none makes none.
   */
  private async sendDue(): Promise<void> {
    const { config } = this.platform;
    do {
      this.again = false;
      await inTick('webhooks.dispatch', async (tick) => {
        const due = await claimDue(this.platform.db, this.platform.now(), config.WEBHOOK_TIMEOUT + 30_000, BATCH);
        if (due.length === 0) return;
        tick.count('webhook.deliveries', due.length);
        await tick.work(() => Promise.all(due.map((d) => this.attempt(d))));
        if (due.length === BATCH) this.again = true;
      });
    } while (this.again && !this.stopped);
  }

  /** One attempt of one delivery, recorded with what follows it. */
  private async attempt(d: DueDelivery): Promise<void> {
    const { db, config } = this.platform;
    const hook = await findWebhook(db, d.webhookId);
    if (!hook) return;
    const at = this.platform.now();
    // A span per attempt when tracing is on, in the trace of the request behind the delivery's event when
    // that was traced (its `traceparent` kept with the event and the delivery), else in the sending
    // round's; the receiver gets the attempt's own `traceparent` to continue it.
    const attempt = await inDeliveryTrace(d, 'webhook delivery', { 'webhook.id': hook.id, 'webhook.delivery.id': d.id, 'webhook.attempt': d.roundAttempts + 1, 'webhook.event': d.event }, async () => {
      const made = await this.post(hook, d, at);
      markActiveSpan(made.status === null ? {} : { 'http.response.status_code': made.status }, made.error);
      return made;
    }, SpanKind.CLIENT);
    const pause = config.WEBHOOK_RETRY_SCHEDULE[d.roundAttempts];
    const now = this.platform.now();
    const next =
      attempt.error === undefined
        ? { state: 'delivered' as const, nextAt: null, now }
        : pause !== undefined
          ? { state: 'pending' as const, nextAt: new Date(now.getTime() + pause), now }
          : { state: 'failed' as const, nextAt: null, now };
    await recordAttempt(db, d.id, attempt, next);
    if (next.state !== 'delivered') qaMetrics.webhookFailures.inc({ final: String(next.state === 'failed') });
    this.platform.logger.info({ webhookId: hook.id, deliveryId: d.id, status: attempt.status, state: next.state, error: attempt.error }, 'webhook attempt');
    if (next.state === 'failed' && (await lastDeliveriesFailed(db, hook.id, config.WEBHOOK_DISABLE_AFTER_FAILURES))) {
      const n = config.WEBHOOK_DISABLE_AFTER_FAILURES;
      // A reaction to the delivery's failure: in its trace, so the event that disables the endpoint records it.
      await inDeliveryTrace(d, 'webhook disable', { 'webhook.id': hook.id }, () =>
        this.deps.onFailing(hook, `The last ${n} ${n === 1 ? 'delivery' : 'deliveries'} failed after every retry (last error: ${attempt.error})`),
      );
    }
  }

  private async post(hook: WebhookRow, d: DueDelivery, at: Date): Promise<Attempt> {
    const { config } = this.platform;
    const started = performance.now();
    const done = (fields: Omit<Attempt, 'at' | 'durationMs'>): Attempt => ({ at: at.toISOString(), durationMs: Math.round(performance.now() - started), ...fields });
    const signing = this.deps.secrets.signing(hook, at);
    // Nothing goes out unsigned: a secret sealed under a key this installation lacks fails the attempt, saying why.
    if ('error' in signing) return done({ status: null, error: signing.error });
    if (signing.unopened) this.platform.logger.warn({ webhookId: hook.id, deliveryId: d.id }, signing.unopened);
    const headers = { 'content-type': 'application/json', 'user-agent': 'qa-platform-webhooks/1', ...traceHeaders(), ...signedHeaders(signing.secrets, d.id, at, d.body) };
    const sent = await sendWebhook(hook.url, { headers, body: d.body, timeoutMs: config.WEBHOOK_TIMEOUT, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_URLS });
    const request = { headers };
    if ('error' in sent) return done({ status: null, error: sent.error, request });
    const ok = sent.status >= 200 && sent.status < 300;
    return done({ status: sent.status, ...(ok ? {} : { error: `HTTP ${sent.status}` }), ...(sent.response ? { response: sent.response } : {}), request });
  }
}
