import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { groupPatch, groupResource, memberIds, pagingOf, parseFilter, patchOperations, ScimError } from '../protocol.js';
import { ListQuery, ResourceBody, ResourceParams, scimContext, type ScimProtocolOptions } from './common.js';

const tags = ['SCIM 2.0'];

const displayName = (body: Record<string, unknown>): string => {
  const name = typeof body.displayName === 'string' ? body.displayName.trim() : '';
  if (name.length < 2 || name.length > 64) throw new ScimError(400, 'displayName must be 2 to 64 characters', 'invalidValue');
  return name;
};

/** `/scim/v2/Groups`: the company's teams and their members. */
export async function scimGroupRoutes(app: FastifyInstance, opts: ScimProtocolOptions): Promise<void> {
  const { scim } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/Groups', {
    schema: { tags, summary: 'Teams of the token\'s company; `filter=displayName eq "…"` finds one', querystring: ListQuery },
    handler: async (request) => {
      const { caller, base } = await scimContext(request, opts);
      const { startIndex, count } = pagingOf(request.query, 200);
      return scim.listGroups(caller, parseFilter(request.query.filter, ['displayName']), startIndex, count, base);
    },
  });

  r.get('/Groups/:id', {
    schema: { tags, summary: 'One team with its members', params: ResourceParams },
    handler: async (request) => {
      const { caller, base } = await scimContext(request, opts);
      return groupResource(await scim.groupOr404(caller, request.params.id), base);
    },
  });

  r.post('/Groups', {
    schema: { tags, summary: 'Create a team, with members who are users of the company', body: ResourceBody },
    handler: async (request, reply) => {
      const { caller, base, ctx } = await scimContext(request, opts);
      const members = request.body.members === undefined ? [] : memberIds(request.body.members);
      const team = await scim.createGroup(caller, displayName(request.body), members, ctx);
      return reply.code(201).header('location', `${base}/Groups/${team.id}`).send(groupResource(team, base));
    },
  });

  r.put('/Groups/:id', {
    schema: { tags, summary: 'Replace a team\'s name and members', params: ResourceParams, body: ResourceBody },
    handler: async (request) => {
      const { caller, base, ctx } = await scimContext(request, opts);
      const team = await scim.groupOr404(caller, request.params.id);
      const replace = request.body.members === undefined ? [] : memberIds(request.body.members);
      return groupResource(await scim.changeGroup(caller, team, { add: [], remove: [], replace, name: displayName(request.body) }, ctx), base);
    },
  });

  r.patch('/Groups/:id', {
    schema: { tags, summary: 'Add or remove members, or rename (PatchOp)', params: ResourceParams, body: ResourceBody },
    handler: async (request) => {
      const { caller, base, ctx } = await scimContext(request, opts);
      const team = await scim.groupOr404(caller, request.params.id);
      const change = groupPatch(patchOperations(request.body));
      if (change.name !== undefined) displayName({ displayName: change.name });
      return groupResource(await scim.changeGroup(caller, team, change, ctx), base);
    },
  });

  r.delete('/Groups/:id', {
    schema: { tags, summary: 'Delete a team; workspace access granted to it ends', params: ResourceParams },
    handler: async (request, reply) => {
      const { caller, ctx } = await scimContext(request, opts);
      await scim.deleteGroup(caller, await scim.groupOr404(caller, request.params.id), ctx);
      return reply.code(204).send();
    },
  });
}
