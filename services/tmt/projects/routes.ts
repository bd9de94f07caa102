import { paging } from '#shared/http/params.js';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findProject, listProjects, type ProjectView } from '#projections/tmt-projects/index.js';
import { found } from '#shared/errors.js';
import { requirePermission, requirePrincipal, requireWorkspace } from '#shared/http/principal.js';
import { pageSchema, toPage } from '#shared/paging.js';
import type { Platform } from '../../platform.js';
import { ok, okList, tmtCaller, UuidParams, v1List, v1One, v1Paging, writeActor, type TmtScope, type TmtWriteScope } from '../http.js';
import { PROJECT_KEY_PATTERN } from '#events/tmt/projects.js';
import { projectWrites } from './service.js';
import { commandContext } from '#shared/es/index.js';

const tags = ['Test management: projects'];

export const Project = z
  .object({ id: z.string(), name: z.string(), key: z.string(), description: z.string(), createdAt: z.string(), updatedAt: z.string() })
  .meta({ id: 'V1Project' });

const name = z.string().trim().min(1).max(200);
const key = z.string().regex(PROJECT_KEY_PATTERN, '2-10 upper-case letters or digits');
const description = z.string().max(5_000);

/** The project of the workspace, or 404 (also for another tenant's id). */
export async function projectOr404(platform: Platform, scope: TmtScope, projectId: string): Promise<ProjectView> {
  return found(await findProject(platform.db, scope, projectId), 'Project not found');
}

/** `/v1/projects` and the workspace's projects under `/tmt/company/api/v1/projects`. */
export async function projectRoutes(app: FastifyInstance, opts: { platform: Platform }): Promise<void> {
  const { platform } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const writes = projectWrites(platform);

  r.get('/v1/projects', {
    schema: { tags, summary: 'Projects of the workspace, oldest first (TMT_READ)', querystring: z.object(v1Paging), response: { 200: v1List(Project) } },
    handler: async (request) => {
      const scope = await tmtCaller(request, 'TMT_READ');
      const { page, limit } = request.query;
      const { items, total } = await listProjects(platform.db, scope, { offset: (page - 1) * limit, limit });
      return okList(items, { page, limit }, total);
    },
  });

  r.get('/v1/projects/:id', {
    schema: { tags, summary: 'One project (TMT_READ)', params: UuidParams, response: { 200: v1One(Project) } },
    handler: async (request) => ok(await projectOr404(platform, await tmtCaller(request, 'TMT_READ'), request.params.id)),
  });

  r.post('/v1/projects', {
    schema: {
      tags,
      summary: 'Create a project in the workspace; its key is unique in the company (TMT_WRITE)',
      body: z.object({ name, key, description: description.default('') }),
      response: { 201: v1One(Project) },
    },
    handler: async (request, reply) => {
      const scope = await tmtCaller(request, 'TMT_WRITE');
      const ctx = commandContext(platform, writeActor(scope));
      const projectId = await writes.create(scope, request.body, ctx);
      return reply.code(201).send(ok(await projectOr404(platform, scope, projectId)));
    },
  });

  r.put('/v1/projects/:id', {
    schema: {
      tags,
      summary: 'Change name, key or description (TMT_WRITE)',
      params: UuidParams,
      body: z.object({ name: name.optional(), key: key.optional(), description: description.optional() }),
      response: { 200: v1One(Project) },
    },
    handler: async (request) => {
      const scope = await tmtCaller(request, 'TMT_WRITE');
      const project = await projectOr404(platform, scope, request.params.id);
      const ctx = commandContext(platform, writeActor(scope));
      await writes.update(scope, project, definedOnly(request.body), ctx);
      return ok(await projectOr404(platform, scope, project.id));
    },
  });

  r.delete('/v1/projects/:id', {
    schema: {
      tags,
      summary: 'Delete a project with its test cases and sessions; its key can be used again (TMT_DELETE)',
      params: UuidParams,
      response: { 200: v1One(z.object({ id: z.string() })) },
    },
    handler: async (request) => {
      const scope = await tmtCaller(request, 'TMT_DELETE');
      const project = await projectOr404(platform, scope, request.params.id);
      const ctx = commandContext(platform, writeActor(scope));
      await writes.delete(scope, project, ctx);
      return ok({ id: project.id });
    },
  });

  r.get('/tmt/company/api/v1/projects', {
    schema: {
      tags,
      summary: 'Projects of the active workspace (X-Workspace-Id), in the platform page shape (TMT_READ)',
      querystring: z.object({
        ...paging,
      }),
      response: { 200: pageSchema(Project, 'ProjectPage') },
    },
    handler: async (request) => {
      requirePrincipal(request);
      const workspace = requireWorkspace(request);
      await requirePermission(request, 'TMT_READ');
      const { page, size } = request.query;
      const { items, total } = await listProjects(platform.db, { companyId: workspace.companyId, workspaceId: workspace.id }, { offset: page * size, limit: size });
      return toPage(items, total, page, size);
    },
  });
}

/** Drops keys whose value is undefined (zod leaves optional keys absent or undefined). */
export function definedOnly<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}
