import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageSchema, PageQuery } from '../../http.js';
import { DELIVERY_EVENT_NAMES } from '../deliveries.js';
import type { WebhookFeatureOptions } from '../options.js';
import { tags, webhookOwner } from './guard.js';
import { HookParams } from './webhooks.js';

const Attempt = z.object({
  at: z.string(),
  status: z.number().int().nullable().describe('The HTTP status answered; null when none came (refused, timed out)'),
  durationMs: z.number().int(),
  error: z.string().optional(),
  response: z.string().optional().describe("The start of the endpoint's answer (at most 1 KiB)"),
  request: z
    .object({
      headers: z.record(z.string(), z.string()).describe('The headers sent: content-type, user-agent and the `webhook-*` headers (the signature, never the secret)'),
      body: z.string().describe('The body sent: the exact bytes signed'),
    })
    .optional()
    .describe('The request this attempt made; absent for attempts logged before requests were kept'),
});

export const Delivery = z
  .object({
    id: z.string().describe('Also the `webhook-id` header of every attempt'),
    event: z.enum(DELIVERY_EVENT_NAMES).describe('The event it tells of, or `webhook.ping` for a ping'),
    createdAt: z.string(),
    state: z.enum(['pending', 'delivered', 'failed']),
    nextAttemptAt: z.string().nullable(),
    attempts: z.array(Attempt),
  })
  .meta({ id: 'WebhookDelivery' });

/** A webhook's delivery log, a ping, and sending a delivery again (WORKSPACE_MANAGE). */
export async function deliveryRoutes(app: FastifyInstance, opts: WebhookFeatureOptions): Promise<void> {
  const { platform, webhooks } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/workspaces/:id/webhooks/:hookId/deliveries', {
    schema: { tags, summary: "A webhook's deliveries, newest first, each with its attempts (WORKSPACE_MANAGE)", params: HookParams, querystring: PageQuery, response: { 200: pageSchema(Delivery) } },
    handler: async (request) => {
      const owner = await webhookOwner(platform, request, request.params.id);
      return webhooks.deliveries(owner, request.params.hookId, request.query.page, request.query.size);
    },
  });

  r.post('/workspaces/:id/webhooks/:hookId/ping', {
    schema: {
      tags,
      summary: 'Send the endpoint a `webhook.ping` now, signed, logged and retried like any delivery (WORKSPACE_MANAGE)',
      params: HookParams,
      response: { 202: Delivery },
    },
    handler: async (request, reply) => {
      const owner = await webhookOwner(platform, request, request.params.id);
      return reply.code(202).send(await webhooks.ping(owner, request.params.hookId));
    },
  });

  r.post('/workspaces/:id/webhooks/:hookId/deliveries/:deliveryId/redeliver', {
    schema: {
      tags,
      summary: 'Send a delivery again now, with a fresh retry schedule (WORKSPACE_MANAGE)',
      params: HookParams.extend({ deliveryId: z.uuid() }),
      response: { 202: Delivery },
    },
    handler: async (request, reply) => {
      const owner = await webhookOwner(platform, request, request.params.id);
      return reply.code(202).send(await webhooks.redeliver(owner, request.params.hookId, request.params.deliveryId));
    },
  });
}
