import { paging } from '#shared/http/params.js';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getUser } from '#projections/org-directory/index.js';
import { findUserGroup, listUserGroups, type UserGroupView } from '#projections/tmt-user-groups/index.js';
import { callerActor, commandContext } from '#shared/es/index.js';
import { AppError, found } from '#shared/errors.js';
import { pageSchema } from '#shared/paging.js';
import type { Platform } from '../../platform.js';
import { companyCaller } from '../http.js';
import { UserGroupWrites } from './service.js';

const tags = ['Test management: user groups'];
const MAX_MEMBERS = 500;

const UserGroup = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    memberIds: z.array(z.number().int()),
    createdBy: z.number().int().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'TmtUserGroup' });

const groupName = z.string().trim().min(1).max(100);
const description = z.string().trim().max(1000);
const userId = z.coerce.number().int().positive().max(2_147_483_647);
const memberIds = z.array(z.number().int().positive().max(2_147_483_647)).max(MAX_MEMBERS);
const Params = z.object({ id: z.uuid() });
const MemberParams = z.object({ id: z.uuid(), userId });

/** The caller of a company-wide route: a user in a workspace of their company, holding `permission`. */

/** `/tmt/company/api/v1/userGroups`: user groups of the company. */
export async function userGroupRoutes(app: FastifyInstance, opts: { platform: Platform }): Promise<void> {
  const { platform } = opts;
  const { db } = platform;
  const writes = new UserGroupWrites(platform);
  const r = app.withTypeProvider<ZodTypeProvider>();

  const groupOr404 = async (companyId: number, groupId: string): Promise<UserGroupView> => {
    return found(await findUserGroup(db, companyId, groupId), 'User group not found');
  };

  /** 400 naming every id that is not a user of the company. */
  const checkMembers = async (companyId: number, ids: readonly number[]): Promise<void> => {
    const unique = [...new Set(ids)];
    const found = await Promise.all(unique.map((id) => getUser(db, companyId, id)));
    const unknown = unique.filter((_, i) => !found[i]);
    if (unknown.length > 0) {
      throw new AppError('VALIDATION_FAILED', `Not users of this company: ${unknown.join(', ')}`, {
        details: unknown.map((id) => ({ path: 'memberIds', message: `${id} is not a user of this company` })),
      });
    }
  };

  r.get('/tmt/company/api/v1/userGroups', {
    schema: {
      tags,
      summary: 'User groups of the company, by name (TMT_READ)',
      querystring: z.object({
        ...paging,
        search: z.string().trim().max(100).optional(),
        memberId: userId.optional(),
      }),
      response: { 200: pageSchema(UserGroup, 'TmtUserGroupPage') },
    },
    handler: async (request) => {
      const c = await companyCaller(request, 'TMT_READ');
      return listUserGroups(db, c.companyId, request.query);
    },
  });

  r.post('/tmt/company/api/v1/userGroups', {
    schema: {
      tags,
      summary: 'Create a user group; names are unique per company, case-insensitive; members must be users of the company (TMT_WRITE)',
      body: z.object({ name: groupName, description: description.default(''), memberIds: memberIds.default([]) }),
      response: { 201: UserGroup },
    },
    handler: async (request, reply) => {
      const c = await companyCaller(request, 'TMT_WRITE');
      const { name, description: desc, memberIds: members } = request.body;
      await checkMembers(c.companyId, members);
      const groupId = await writes.create(c.companyId, { name, description: desc, memberIds: members }, commandContext(platform, callerActor(c)));
      return reply.code(201).send(await groupOr404(c.companyId, groupId));
    },
  });

  r.get('/tmt/company/api/v1/userGroups/:id', {
    schema: { tags, summary: 'One user group (TMT_READ)', params: Params, response: { 200: UserGroup } },
    handler: async (request) => groupOr404((await companyCaller(request, 'TMT_READ')).companyId, request.params.id),
  });

  r.put('/tmt/company/api/v1/userGroups/:id', {
    schema: {
      tags,
      summary: 'Rename, describe, or replace the members of a user group; absent fields stay (TMT_WRITE)',
      params: Params,
      body: z.object({ name: groupName.optional(), description: description.optional(), memberIds: memberIds.optional() }),
      response: { 200: UserGroup },
    },
    handler: async (request) => {
      const c = await companyCaller(request, 'TMT_WRITE');
      const group = await groupOr404(c.companyId, request.params.id);
      const { name, description: desc, memberIds: members } = request.body;
      if (members) await checkMembers(c.companyId, members);
      const changes = { ...(name !== undefined ? { name } : {}), ...(desc !== undefined ? { description: desc } : {}), ...(members !== undefined ? { memberIds: members } : {}) };
      await writes.update(group, c.companyId, changes, commandContext(platform, callerActor(c)));
      return groupOr404(c.companyId, group.id);
    },
  });

  r.delete('/tmt/company/api/v1/userGroups/:id', {
    schema: { tags, summary: 'Delete a user group (TMT_DELETE)', params: Params, response: { 204: z.null() } },
    handler: async (request, reply) => {
      const c = await companyCaller(request, 'TMT_DELETE');
      const group = await groupOr404(c.companyId, request.params.id);
      await writes.delete(group, c.companyId, commandContext(platform, callerActor(c)));
      return reply.code(204).send(null);
    },
  });

  r.post('/tmt/company/api/v1/userGroups/:id/members/:userId', {
    schema: { tags, summary: 'Add a user of the company to the group (TMT_WRITE)', params: MemberParams, response: { 200: UserGroup } },
    handler: async (request) => {
      const c = await companyCaller(request, 'TMT_WRITE');
      const group = await groupOr404(c.companyId, request.params.id);
      if (!(await getUser(db, c.companyId, request.params.userId))) throw new AppError('NOT_FOUND', 'User not found');
      await writes.addMember(group.id, c.companyId, request.params.userId, commandContext(platform, callerActor(c)));
      return groupOr404(c.companyId, group.id);
    },
  });

  r.delete('/tmt/company/api/v1/userGroups/:id/members/:userId', {
    schema: { tags, summary: 'Remove a member from the group (TMT_WRITE)', params: MemberParams, response: { 200: UserGroup } },
    handler: async (request) => {
      const c = await companyCaller(request, 'TMT_WRITE');
      const group = await groupOr404(c.companyId, request.params.id);
      await writes.removeMember(group.id, c.companyId, request.params.userId, commandContext(platform, callerActor(c)));
      return groupOr404(c.companyId, group.id);
    },
  });
}
