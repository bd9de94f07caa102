import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findSession } from '#projections/df-sessions/index.js';
import { requirePrincipal } from '#shared/http/principal.js';
import { idParam, requireSessionShare } from '../../http.js';
import { sessionLookup, type SessionRoutesOptions } from './lookup.js';
import { Params, tags } from './schemas.js';

/** `/df/api/sessions/{id}/viewers`: who watches the session, and disconnecting them. */
export async function viewerRoutes(app: FastifyInstance, opts: SessionRoutesOptions): Promise<void> {
  // Made at registration, as it always was: the OpenAPI document lists named schemas in the order they are made.
  const ViewerSchema = z
    .object({ userId: z.number(), name: z.string(), access: z.enum(['view', 'control']), connectedAt: z.string(), connections: z.number() })
    .meta({ id: 'DfSessionViewer' });
  const { platform, hub, sharing } = opts;
  const { readable, content } = sessionLookup(opts);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/sessions/:sessionId/viewers', {
    schema: { tags, summary: 'Who watches the session now (one entry per user)', params: Params, response: { 200: z.array(ViewerSchema) } },
    handler: async (request) => {
      requirePrincipal(request);
      const keys = await request.permissions();
      const ws = request.workspace;
      // Readers of the session's workspace, and the people it is shared with.
      const own = ws && keys.has('df:session:read') ? await findSession(platform.db, { companyId: ws.companyId, workspaceId: ws.id }, request.params.sessionId) : null;
      const session = own ?? (await content(request, request.params.sessionId)).session;
      return hub.viewers(session.id);
    },
  });

  r.delete('/api/sessions/:sessionId/viewers/:userId', {
    schema: {
      tags,
      summary: "Disconnect a user's viewers at once and withdraw their access to the session",
      params: z.object({ sessionId: idParam, userId: z.coerce.number().int().positive() }),
      response: { 200: z.object({ disconnected: z.number() }) },
    },
    handler: async (request) => {
      const { c, session } = await readable(request, request.params.sessionId);
      await requireSessionShare(request, session);
      return { disconnected: await sharing.disconnect(session, c, request.params.userId) };
    },
  });
}
