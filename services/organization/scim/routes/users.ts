import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { personOf, pagingOf, parseFilter, patchOperations, userPatch, userResource } from '../protocol.js';
import { ListQuery, ResourceBody, ResourceParams, scimContext, type ScimProtocolOptions } from './common.js';

const tags = ['SCIM 2.0'];
const FILTERS = ['userName', 'emails.value'] as const;

/** `/scim/v2/Users`: the company's users, as a directory provisions them. */
export async function scimUserRoutes(app: FastifyInstance, opts: ScimProtocolOptions): Promise<void> {
  const { scim } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/Users', {
    schema: { tags, summary: 'Users of the token\'s company; `filter=userName eq "…"` finds one', querystring: ListQuery },
    handler: async (request) => {
      const { caller, base } = await scimContext(request, opts);
      const { startIndex, count } = pagingOf(request.query, 200);
      return scim.listUsers(caller, parseFilter(request.query.filter, FILTERS), startIndex, count, base);
    },
  });

  r.get('/Users/:id', {
    schema: { tags, summary: 'One user', params: ResourceParams },
    handler: async (request) => {
      const { caller, base } = await scimContext(request, opts);
      return userResource(await scim.userOr404(caller, request.params.id), base);
    },
  });

  r.post('/Users', {
    schema: { tags, summary: 'Provision a user: active, with the token\'s roles, signing in through the company\'s identity provider', body: ResourceBody },
    handler: async (request, reply) => {
      const { caller, base, ctx } = await scimContext(request, opts);
      const user = await scim.createUser(caller, personOf(request.body), ctx);
      return reply.code(201).header('location', `${base}/Users/${user.id}`).send(userResource(user, base));
    },
  });

  r.put('/Users/:id', {
    schema: { tags, summary: 'Replace a user\'s name, title, phone and `active`', params: ResourceParams, body: ResourceBody },
    handler: async (request) => {
      const { caller, base, ctx } = await scimContext(request, opts);
      const user = await scim.userOr404(caller, request.params.id);
      const person = personOf(request.body);
      return userResource(await scim.changeUser(caller, user, { ...person, title: person.title ?? null, phone: person.phone ?? null }, ctx), base);
    },
  });

  r.patch('/Users/:id', {
    schema: { tags, summary: 'Change a user (PatchOp); `active: false` deactivates them and ends every token of theirs at once', params: ResourceParams, body: ResourceBody },
    handler: async (request) => {
      const { caller, base, ctx } = await scimContext(request, opts);
      const user = await scim.userOr404(caller, request.params.id);
      return userResource(await scim.changeUser(caller, user, userPatch(patchOperations(request.body)), ctx), base);
    },
  });

  r.delete('/Users/:id', {
    schema: { tags, summary: 'Delete a user: their tokens end, their address and username are freed', params: ResourceParams },
    handler: async (request, reply) => {
      const { caller, ctx } = await scimContext(request, opts);
      await scim.deleteUser(await scim.userOr404(caller, request.params.id), ctx);
      return reply.code(204).send();
    },
  });
}
