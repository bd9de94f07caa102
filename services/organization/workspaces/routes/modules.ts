import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParams } from '../../http.js';
import { tags, workspaceGuards, type WorkspacesOptions } from '../guards.js';
import { moduleList } from '../rules.js';

const Modules = z.object({ modules: z.array(z.string()) }).meta({ id: 'WorkspaceModules' });

/** The modules a workspace is entitled to. */
export async function moduleRoutes(app: FastifyInstance, opts: WorkspacesOptions): Promise<void> {
  const { workspaceOr404, requireKeyIn, requireReadable, change } = workspaceGuards(opts);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/workspaces/:id/modules', {
    schema: { tags, summary: 'Modules the workspace is entitled to', params: IdParams, response: { 200: Modules } },
    handler: async (request) => {
      const ws = await workspaceOr404(request, request.params.id);
      await requireReadable(request, ws);
      return { modules: ws.modules };
    },
  });

  r.put('/workspaces/:id/modules', {
    schema: { tags, summary: 'Change the modules the workspace is entitled to (WORKSPACE_MANAGE)', params: IdParams, body: z.object({ modules: moduleList }), response: { 200: Modules } },
    handler: async (request) => {
      const ws = await workspaceOr404(request, request.params.id);
      await requireKeyIn(request, ws, 'WORKSPACE_MANAGE');
      return { modules: (await change(request, ws, { type: 'ChangeModules', companyId: ws.companyId, modules: request.body.modules })).modules };
    },
  });
}
