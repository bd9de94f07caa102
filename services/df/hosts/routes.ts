import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findDevice } from '#projections/df-devices/index.js';
import { findHost, listHosts } from '#projections/df-hosts/index.js';
import { found } from '#shared/errors.js';
import { callerActor, commandContext } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import type { ActiveWorkspace } from '#shared/http/principal.js';
import { pageSchema } from '#shared/paging.js';
import type { Platform } from '../../platform.js';
import { caller, idParam, paging, queryBoolean } from '../http.js';
import { DeviceSchema } from '../devices/index.js';
import type { Caller } from '../http.js';
import type { HostEnrolments } from './enrolments.js';
import type { HostRegistry } from './registry.js';

const tags = ['Device testing: hosts'];

const Host = z
  .object({
    id: z.string(),
    name: z.string(),
    workspaceIds: z.array(z.number()).nullable().describe('Workspaces its devices serve; null for every workspace of the company'),
    status: z.enum(['pending', 'active', 'revoked']).describe('pending: enrolled, waiting for its first connection; active: it has connected'),
    tokenPrefix: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    revokedAt: z.string().nullable(),
    firstConnectedAt: z.string().nullable().describe('When the host first connected; null while it never has'),
    devices: z.object({ total: z.number().int(), online: z.number().int() }),
  })
  .meta({ id: 'DfHost' });

const Enrolled = z
  .object({ id: z.string(), name: z.string(), workspaceIds: z.array(z.number()).nullable(), token: z.string().describe('dfh_...: shown in this answer only') })
  .meta({ id: 'DfHostEnrolment' });

const name = z.string().trim().min(1).max(100);
const workspaceIds = z.array(z.number().int().positive()).min(1).max(500).nullable().optional();
const Params = z.object({ hostId: idParam });

export interface HostRoutesOptions {
  platform: Platform;
  enrolments: HostEnrolments;
  registry: HostRegistry;
  resolveWorkspace(user: { userId: number; companyId: number }, workspaceId: number): Promise<ActiveWorkspace | null>;
}

/**
 * `/df/api/hosts`: enrol a device host into the company (the token is shown once), list, rename,
 * re-scope, rotate its token, revoke it; move a device between the company's hosts. Hosts are the
 * company's: `df:host:manage` in any workspace.
 */
export async function hostRoutes(app: FastifyInstance, opts: HostRoutesOptions): Promise<void> {
  const { platform, enrolments, registry } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const settle = async (position: bigint | null) => {
    if (position !== null) await platform.readModels.waitFor(position, { names: ['df-hosts', 'df-devices'] });
  };
  /** Every workspace named must be one of the company's that the caller can enter; otherwise 404 naming it. */
  const checkWorkspaces = async (c: Caller, ids: number[] | null | undefined): Promise<number[] | null> => {
    if (!ids) return null;
    const unique = [...new Set(ids)].sort((a, b) => a - b);
    for (const id of unique) {
      const ws = await opts.resolveWorkspace({ userId: c.userId, companyId: c.companyId }, id);
      if (!ws || ws.companyId !== c.companyId) throw new AppError('NOT_FOUND', `Workspace ${id} not found`);
    }
    return unique;
  };
  const hostOf = async (c: Caller, hostId: string) => found(await findHost(platform.db, c.companyId, hostId), 'Host not found');

  r.post('/api/hosts', {
    schema: {
      tags,
      summary: 'Enrol a device host; its token (for the agent config, hostToken) is in this answer only',
      body: z.object({ name, workspaceIds }),
      response: { 201: Enrolled },
    },
    handler: async (request, reply) => {
      const c = await caller(request, 'df:host:manage');
      const ws = await checkWorkspaces(c, request.body.workspaceIds);
      const { hostId, token, position } = await enrolments.enrol({ name: request.body.name, companyId: c.companyId, workspaceIds: ws }, commandContext(platform, callerActor(c)));
      await settle(position);
      reply.code(201).header('cache-control', 'no-store');
      return { id: hostId, name: request.body.name, workspaceIds: ws, token };
    },
  });

  r.get('/api/hosts', {
    schema: {
      tags,
      summary: "The company's enrolled hosts, with their device counts",
      querystring: z.object({ ...paging, includeRevoked: queryBoolean }),
      response: { 200: pageSchema(Host) },
    },
    handler: async (request) => {
      const c = await caller(request, 'df:host:manage');
      const q = request.query;
      return listHosts(platform.db, c.companyId, { page: q.page, size: q.size, includeRevoked: q.includeRevoked ?? false });
    },
  });

  r.get('/api/hosts/:hostId', {
    schema: { tags, summary: 'One host', params: Params, response: { 200: Host } },
    handler: async (request) => hostOf(await caller(request, 'df:host:manage'), request.params.hostId),
  });

  r.put('/api/hosts/:hostId', {
    schema: {
      tags,
      summary: 'Rename a host or change the workspaces its devices serve (null: every workspace)',
      params: Params,
      body: z.object({ name: name.optional(), workspaceIds }).refine((b) => b.name !== undefined || b.workspaceIds !== undefined, 'name or workspaceIds'),
      response: { 200: Host },
    },
    handler: async (request) => {
      const c = await caller(request, 'df:host:manage');
      const host = await hostOf(c, request.params.hostId);
      if (request.body.name !== undefined) await settle((await enrolments.rename(host.id, request.body.name, commandContext(platform, callerActor(c)))).position);
      if (request.body.workspaceIds !== undefined) {
        const ws = await checkWorkspaces(c, request.body.workspaceIds);
        await settle((await enrolments.rescope(host.id, ws, commandContext(platform, callerActor(c)))).position);
      }
      return hostOf(c, host.id);
    },
  });

  r.post('/api/hosts/:hostId/token', {
    schema: { tags, summary: 'A new token for the host; the old one stops working at its next hello', params: Params, response: { 200: Enrolled } },
    handler: async (request, reply) => {
      const c = await caller(request, 'df:host:manage');
      const host = await hostOf(c, request.params.hostId);
      const { token, position } = await enrolments.rotate(host.id, commandContext(platform, callerActor(c)));
      await settle(position);
      reply.header('cache-control', 'no-store');
      return { id: host.id, name: host.name, workspaceIds: host.workspaceIds, token };
    },
  });

  r.post('/api/devices/:deviceId/move', {
    schema: {
      tags,
      summary: 'Move a device to another host of the company: it is offline until that host reports it, and only that host may speak for it from then on',
      params: z.object({ deviceId: idParam }),
      body: z.object({ hostId: idParam }),
      response: { 200: DeviceSchema },
    },
    handler: async (request) => {
      const c = await caller(request, 'df:host:manage');
      const scope = { ...c, sharedPool: platform.config.DF_SHARED_POOL_TOKEN !== undefined };
      const device = found(await findDevice(platform.db, scope, request.params.deviceId), 'Device not found');
      const result = await registry.moveDevice(device.id, request.body.hostId, { ...commandContext(platform, callerActor(c)), companyId: c.companyId });
      await settle(result.position);
      // A host serving other workspaces takes the device out of the caller's sight: it is answered as it left.
      return (await findDevice(platform.db, scope, device.id, platform.now())) ?? { ...device, status: 'offline' };
    },
  });

  r.delete('/api/hosts/:hostId', {
    schema: { tags, summary: 'Revoke a host: its devices go offline, their sessions end, its hellos are refused', params: Params, response: { 204: z.null() } },
    handler: async (request, reply) => {
      const c = await caller(request, 'df:host:manage');
      const host = await hostOf(c, request.params.hostId);
      const result = await enrolments.revoke(host.id, 'revoked by an administrator', commandContext(platform, callerActor(c)));
      await registry.revoked(host.id);
      await settle(result.position);
      reply.code(204);
      return null;
    },
  });
}
