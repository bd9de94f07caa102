import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ControlAction, UiNode } from '#shared/wire/index.js';
import { sessionLookup, type SessionRoutesOptions } from './lookup.js';
import { Params, tags } from './schemas.js';

/** `/df/api/sessions/{id}/ui-tree|device/control`: the session's device, read and driven. */
export async function deviceRoutes(app: FastifyInstance, opts: SessionRoutesOptions): Promise<void> {
  const { sessions } = opts;
  const { content } = sessionLookup(opts);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/sessions/:sessionId/ui-tree', {
    schema: { tags, summary: 'UI element tree (the DOM with roles for a browser device)', params: Params, response: { 200: z.object({ url: z.string(), title: z.string(), root: UiNode }) } },
    handler: async (request) => {
      const { session } = await content(request, request.params.sessionId);
      return sessions.device(session, { op: 'uiTree' });
    },
  });

  r.post('/api/sessions/:sessionId/device/control', {
    schema: {
      tags,
      summary: 'Send one control action (tap, longPress, swipe, pinch, text, key, home, back, rotate, openUrl)',
      params: Params,
      body: ControlAction,
      response: { 200: z.object({ ok: z.literal(true), action: z.string(), url: z.string().optional(), orientation: z.string().optional() }) },
    },
    handler: async (request) => {
      // The owner, a session manager, or a user an invitation with `control` names (docs/modules/device-testing.md, "Sharing").
      const { session, caller: c } = await content(request, request.params.sessionId, 'control');
      const result = await sessions.control(session, c, request.body, 'api');
      return { ok: true as const, action: request.body.action, ...result };
    },
  });
}
