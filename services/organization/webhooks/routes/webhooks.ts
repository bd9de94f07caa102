import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WEBHOOK_EVENT_NAMES } from '#events/organization/webhooks.js';
import { IdParams, intId, requestActor } from '../../http.js';
import type { WebhookFeatureOptions } from '../options.js';
import { tags, webhookOwner } from './guard.js';
import { commandContext } from '#shared/es/index.js';

// Event names and URLs are checked by the service, so a wrong one answers its own stable code
// (UNKNOWN_WEBHOOK_EVENT, INVALID_WEBHOOK_URL) rather than the schema's VALIDATION_FAILED.
const url = z.string().trim().min(1).max(2048).describe('An http:// or https:// URL');
const events = z.array(z.string().max(64)).max(WEBHOOK_EVENT_NAMES.length * 2).describe(`Any of ${WEBHOOK_EVENT_NAMES.join(', ')}`);

export const Webhook = z
  .object({
    id: z.number().int(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_NAMES)),
    enabled: z.boolean(),
    createdAt: z.string(),
    disabledReason: z.string().optional().describe('Why the platform disabled it (its deliveries kept failing)'),
    secret: z.string().optional().describe('The signing secret (`whsec_...`): only in the answer that created the webhook or rotated its secret'),
    previousSecretExpiresAt: z
      .string()
      .optional()
      .describe('After a rotation: until when the secret it replaced signs too (each attempt carries both signatures until then)'),
    secretMustBeRotated: z
      .literal(true)
      .optional()
      .describe('Its signing secret was sealed under a key this installation no longer has: every delivery fails until the secret is rotated'),
  })
  .meta({ id: 'Webhook' });

export const HookParams = IdParams.extend({ hookId: intId });

/** How long an old secret signs beside the new one after a rotation: by default a day, at most a week. */
const DEFAULT_OVERLAP_SECONDS = 24 * 3600;
const MAX_OVERLAP_SECONDS = 7 * 24 * 3600;

/** `/api/v1/workspaces/{id}/webhooks`: a workspace's endpoints (WORKSPACE_MANAGE). */
export async function webhookRoutes(app: FastifyInstance, opts: WebhookFeatureOptions): Promise<void> {
  const { platform, webhooks } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/workspaces/:id/webhooks', {
    schema: { tags, summary: "The workspace's webhooks (WORKSPACE_MANAGE)", params: IdParams, response: { 200: z.array(Webhook) } },
    handler: async (request) => (await webhooks.list(await webhookOwner(platform, request, request.params.id))).map((w) => webhooks.view(w)),
  });

  r.post('/workspaces/:id/webhooks', {
    schema: {
      tags,
      summary: 'Add a webhook; the answer shows its signing secret, the only time it is shown (WORKSPACE_MANAGE)',
      params: IdParams,
      body: z.object({ url, events: events.min(1), enabled: z.boolean().default(true) }),
      response: { 201: Webhook },
    },
    handler: async (request, reply) => {
      const owner = await webhookOwner(platform, request, request.params.id);
      const { hook, secret } = await webhooks.create(owner, request.body, commandContext(platform, requestActor(request)));
      return reply.code(201).send(webhooks.view(hook, secret));
    },
  });

  r.get('/workspaces/:id/webhooks/:hookId', {
    schema: { tags, summary: 'One webhook (WORKSPACE_MANAGE)', params: HookParams, response: { 200: Webhook } },
    handler: async (request) => webhooks.view(await webhooks.get(await webhookOwner(platform, request, request.params.id), request.params.hookId)),
  });

  r.patch('/workspaces/:id/webhooks/:hookId', {
    schema: {
      tags,
      summary: 'Change the URL or the events, or enable or disable a webhook; enabling clears `disabledReason` (WORKSPACE_MANAGE)',
      params: HookParams,
      body: z.object({ url: url.optional(), events: events.optional(), enabled: z.boolean().optional() }),
      response: { 200: Webhook },
    },
    handler: async (request) => {
      const owner = await webhookOwner(platform, request, request.params.id);
      return webhooks.view(await webhooks.change(owner, request.params.hookId, request.body, commandContext(platform, requestActor(request))));
    },
  });

  r.post('/workspaces/:id/webhooks/:hookId/rotate-secret', {
    schema: {
      tags,
      summary: 'A new signing secret, shown in this answer only; the old one signs too for `overlapSeconds` (WORKSPACE_MANAGE)',
      params: HookParams,
      body: z
        .object({
          overlapSeconds: z
            .number()
            .int()
            .min(0)
            .max(MAX_OVERLAP_SECONDS)
            .default(DEFAULT_OVERLAP_SECONDS)
            .describe(`How long the old secret keeps signing beside the new one: 0 to ${MAX_OVERLAP_SECONDS} (7 days), by default ${DEFAULT_OVERLAP_SECONDS} (24 h)`),
        })
        .default({ overlapSeconds: DEFAULT_OVERLAP_SECONDS }),
      response: { 200: Webhook },
    },
    handler: async (request) => {
      const owner = await webhookOwner(platform, request, request.params.id);
      const { hook, secret } = await webhooks.rotateSecret(owner, request.params.hookId, request.body.overlapSeconds, commandContext(platform, requestActor(request)));
      return webhooks.view(hook, secret);
    },
  });

  r.delete('/workspaces/:id/webhooks/:hookId', {
    schema: { tags, summary: 'Remove a webhook; nothing more is sent to it (WORKSPACE_MANAGE)', params: HookParams, response: { 204: z.null() } },
    handler: async (request, reply) => {
      await webhooks.delete(await webhookOwner(platform, request, request.params.id), request.params.hookId, commandContext(platform, requestActor(request)));
      return reply.code(204).send(null);
    },
  });
}
