import { randomUUID } from 'node:crypto';
import { getUser, getWorkspace } from '#projections/org-directory/index.js';
import { allLiveWebhooks, getWebhook, listWebhooks, type WebhookRow } from '#projections/org-webhooks/index.js';
import { WEBHOOK_EVENT_NAMES, webhookStream, type WebhookEventName } from '#events/organization/webhooks.js';
import type { SecretBox } from '#shared/auth/index.js';
import { AppError, found } from '#shared/errors.js';
import { commandContext, type CommandContext } from '#shared/es/index.js';
import { allocateId } from '#shared/ids.js';
import { toPage, type Page } from '#shared/paging.js';
import type { Platform } from '../../platform.js';
import { orgAggregate } from '../service.js';
import { webhookDecider, type WebhookChanges } from './decide.js';
import { getDelivery, listDeliveries, messageBody, queueDelivery, requeueDelivery, type Delivery } from './deliveries.js';
import { WebhookDispatcher } from './dispatcher.js';
import { checkedEndpointUrl } from './endpoint-url.js';
import { newSecret } from './signature.js';
import { WebhookSecrets } from './secrets.js';
import { traceHeaders } from '#shared/tracing/index.js';

/** Whose webhooks: one workspace of one company. */
export interface WebhookOwner {
  companyId: number;
  workspaceId: number;
}

/**
 * An endpoint as the API shows it: the secret only in the answer that created it (or rotated it), and
 * whether its secret must be rotated (sealed under a key this installation no longer has).
 */
export interface WebhookView {
  id: number;
  url: string;
  events: WebhookEventName[];
  enabled: boolean;
  createdAt: string;
  disabledReason?: string;
  secret?: string;
  previousSecretExpiresAt?: string;
  secretMustBeRotated?: true;
}

/** `secret`: the new secret in clear, for the answer that made it; `opens`: whether the stored one opens. */
export const viewOf = (w: WebhookRow, { secret, opens = true }: { secret?: string | undefined; opens?: boolean } = {}): WebhookView => ({
  id: w.id,
  url: w.url,
  events: w.events,
  enabled: w.enabled,
  createdAt: w.createdAt,
  ...(w.disabledReason ? { disabledReason: w.disabledReason } : {}),
  ...(secret !== undefined ? { secret } : {}),
  ...(w.previousSecretUntil ? { previousSecretExpiresAt: w.previousSecretUntil } : {}),
  ...(opens ? {} : { secretMustBeRotated: true as const }),
});

/** Event names checked against the catalog (400 `UNKNOWN_WEBHOOK_EVENT`), without repeats, in the catalog's order. */
function checkedEvents(events: readonly string[]): WebhookEventName[] {
  const unknown = events.filter((e) => !(WEBHOOK_EVENT_NAMES as readonly string[]).includes(e));
  if (unknown.length > 0) throw new AppError('UNKNOWN_WEBHOOK_EVENT', `Unknown webhook event ${unknown.join(', ')}; known: ${WEBHOOK_EVENT_NAMES.join(', ')}`);
  if (events.length === 0) throw new AppError('UNKNOWN_WEBHOOK_EVENT', 'A webhook needs at least one event');
  return WEBHOOK_EVENT_NAMES.filter((e) => events.includes(e));
}

/**
 * The write side of webhooks: endpoints (events on `webhook-<id>`), their delivery log, redelivery, and
 * the dispatcher's lifetime. Signing secrets are sealed (`SecretBox`) before they go into an event;
 * the dispatcher opens them to sign.
 */
export class WebhookService {
  private readonly webhooks;
  private readonly secrets: WebhookSecrets;
  readonly dispatcher: WebhookDispatcher;

  constructor(
    private readonly platform: Platform,
    box: SecretBox,
  ) {
    this.webhooks = orgAggregate(platform, webhookDecider, webhookStream, ['org-webhooks']);
    this.secrets = new WebhookSecrets(box);
    this.dispatcher = new WebhookDispatcher({ platform, secrets: this.secrets, onFailing: (hook, reason) => this.disable(hook, reason) });
  }

  /** The endpoint as the API shows it; `secret`, the new one in clear, only in the answer that made it. */
  view(hook: WebhookRow, secret?: string): WebhookView {
    return viewOf(hook, { secret, opens: this.secrets.opens(hook) });
  }

  list(owner: WebhookOwner): Promise<WebhookRow[]> {
    return listWebhooks(this.platform.db, owner.companyId, owner.workspaceId);
  }

  async get(owner: WebhookOwner, id: number): Promise<WebhookRow> {
    return found(await getWebhook(this.platform.db, owner.companyId, owner.workspaceId, id), 'Webhook not found');
  }

  /** A new endpoint, and its signing secret in clear: the event and the read model keep it sealed. */
  async create(owner: WebhookOwner & { userId: number }, input: { url: string; events: string[]; enabled: boolean }, ctx: CommandContext): Promise<{ hook: WebhookRow; secret: string }> {
    const url = checkedEndpointUrl(input.url, this.platform.config.WEBHOOK_ALLOW_PRIVATE_URLS);
    const events = checkedEvents(input.events);
    const webhookId = await allocateId(this.platform.db, 'webhook');
    const secret = newSecret();
    const webhook = { webhookId, companyId: owner.companyId, workspaceId: owner.workspaceId, url, events, enabled: input.enabled, secret: this.secrets.seal(webhookId, secret), createdBy: owner.userId };
    await this.webhooks.run(webhookId, { type: 'CreateWebhook', webhook }, ctx);
    return { hook: await this.get(owner, webhookId), secret };
  }

  async change(owner: WebhookOwner, id: number, input: { url?: string | undefined; events?: string[] | undefined; enabled?: boolean | undefined }, ctx: CommandContext): Promise<WebhookRow> {
    const changes: WebhookChanges = {};
    if (input.url !== undefined) changes.url = checkedEndpointUrl(input.url, this.platform.config.WEBHOOK_ALLOW_PRIVATE_URLS);
    if (input.events !== undefined) changes.events = checkedEvents(input.events);
    if (input.enabled !== undefined) changes.enabled = input.enabled;
    await this.webhooks.run(id, { type: 'ChangeWebhook', ...owner, changes }, ctx);
    const hook = await this.get(owner, id);
    if (hook.enabled) this.dispatcher.wake();
    return hook;
  }

  async delete(owner: WebhookOwner, id: number, ctx: CommandContext): Promise<void> {
    await this.webhooks.run(id, { type: 'DeleteWebhook', ...owner }, ctx);
  }

  /**
   * A new signing secret for the endpoint; the one it replaces signs beside it for `overlapSeconds`
   * more (from now), so receivers holding either verify every attempt until then. The old secret is
   * not needed (one sealed under a lost key is replaced all the same). Answers the new secret in clear.
   */
  async rotateSecret(owner: WebhookOwner, id: number, overlapSeconds: number, ctx: CommandContext): Promise<{ hook: WebhookRow; secret: string }> {
    const overlapEndsAt = new Date(this.platform.now().getTime() + overlapSeconds * 1000).toISOString();
    const secret = newSecret();
    await this.webhooks.run(id, { type: 'RotateWebhookSecret', ...owner, secret: this.secrets.seal(id, secret), overlapEndsAt }, ctx);
    return { hook: await this.get(owner, id), secret };
  }

  /**
   * Seals again, under the current key, the secrets of every endpoint sealed under an older key or
   * recorded before sealing existed (a key rotation, an older installation): the secret in use and the
   * replaced one while it still signs (`WebhookSecrets.resealed`). Run at start-up; each is a
   * `WebhookSecretResealed` of the platform itself. A secret no configured key opens is logged and
   * left for a rotation. The number sealed again.
   */
  async resealSecrets(): Promise<number> {
    const { db, readModels, store } = this.platform;
    await readModels.waitFor(await store.headPosition(), { names: ['org-webhooks'] });
    let count = 0;
    for (const hook of await allLiveWebhooks(db)) {
      const sealed = this.secrets.resealed(hook, this.platform.now(), (field) =>
        this.platform.logger.error({ webhookId: hook.id, field }, 'a webhook signing secret does not open: set SECRETS_PREVIOUS_KEYS, or rotate the secret'),
      );
      if (!sealed) continue;
      const ctx = commandContext(this.platform, { companyId: hook.companyId, workspaceId: hook.workspaceId });
      const result = await this.webhooks.run(hook.id, { type: 'ResealWebhookSecret', was: { secret: hook.secret, previousSecret: hook.previousSecret }, ...sealed }, ctx);
      if (result.events.length > 0) count++;
    }
    return count;
  }

  /** A page of the endpoint's delivery log, newest first. */
  async deliveries(owner: WebhookOwner, id: number, page: number, size: number): Promise<Page<Delivery>> {
    const hook = await this.get(owner, id);
    const { content, total } = await listDeliveries(this.platform.db, hook.id, page, size);
    return toPage(content, total, page, size);
  }

  /**
   * Queues a `webhook.ping` to the endpoint, due now, and wakes the sender: it goes the way every
   * delivery goes (signed, logged, retried). A disabled endpoint's ping waits, like its other deliveries, until it is enabled.
   */
  async ping(owner: WebhookOwner, id: number): Promise<Delivery> {
    const hook = await this.get(owner, id);
    const now = this.platform.now();
    const deliveryId = await queueDelivery(this.platform.db, {
      webhookId: hook.id,
      companyId: hook.companyId,
      workspaceId: hook.workspaceId,
      key: `ping:${randomUUID()}`,
      event: 'webhook.ping',
      body: messageBody('webhook.ping', now, { webhookId: hook.id, workspaceId: hook.workspaceId }),
      subject: null,
      createdAt: now,
      dueAt: now,
      // Its attempt continues this request's trace.
      traceparent: traceHeaders().traceparent,
    });
    this.dispatcher.wake();
    return found(deliveryId === null ? null : await getDelivery(this.platform.db, hook.id, deliveryId), 'Delivery not found');
  }

  /** Sends a delivery again, now, with a fresh retry schedule; its log keeps every earlier attempt. */
  async redeliver(owner: WebhookOwner, id: number, deliveryId: string): Promise<Delivery> {
    const hook = await this.get(owner, id);
    if (!(await requeueDelivery(this.platform.db, hook.id, deliveryId, this.platform.now(), traceHeaders().traceparent))) throw new AppError('NOT_FOUND', 'Delivery not found');
    this.dispatcher.wake();
    return found(await getDelivery(this.platform.db, hook.id, deliveryId), 'Delivery not found');
  }

  /** Disables an endpoint whose deliveries keep failing, and tells whoever created it. */
  private async disable(hook: WebhookRow, reason: string): Promise<void> {
    const ctx = commandContext(this.platform, { actorId: 'system:webhooks', companyId: hook.companyId, workspaceId: hook.workspaceId });
    const result = await this.webhooks.run(hook.id, { type: 'DisableWebhook', reason }, ctx, { settle: false });
    if (result.events.length === 0) return;
    this.platform.logger.warn({ webhookId: hook.id, reason }, 'webhook disabled');
    const owner = await getUser(this.platform.db, hook.companyId, hook.createdBy);
    if (!owner || owner.status !== 'active') return;
    const workspace = await getWorkspace(this.platform.db, hook.companyId, hook.workspaceId);
    const link = this.platform.publicAddress.link('/org/webhooks');
    await this.platform.mailer.send({
      to: owner.email,
      subject: `Webhook disabled: ${hook.url}`,
      text: `Your webhook ${hook.url} in the workspace "${workspace?.name ?? hook.workspaceId}" was disabled.\n\n${reason}.\n\nNo more events are sent to it. Fix the endpoint, then enable it again and send the failed deliveries again on the Webhooks page of that workspace: ${link}\n`,
    });
  }
}
