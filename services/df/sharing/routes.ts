import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listInvitations, type InvitationView } from '#projections/df-session-sharing/index.js';
import { SessionAccess } from '#events/df/sharing.js';
import { requirePrincipal } from '#shared/http/principal.js';
import type { Platform } from '../../platform.js';
import { caller, idParam, requireSessionShare } from '../core/caller.js';
import type { SessionPort } from '../core/session-port.js';
import type { SharingService } from './service.js';

const tags = ['Device testing: sharing'];
const Params = z.object({ sessionId: idParam });

const Created = z
  .object({
    id: z.string(),
    type: z.enum(['user', 'link']),
    access: SessionAccess,
    url: z.string().optional(),
    token: z.string().optional(),
    expiresAt: z.string(),
    maxUses: z.number().int().nullable(),
    uses: z.number().int(),
    createdAt: z.string(),
  })
  .meta({ id: 'DfSessionInvitationCreated' });
const Listed = z
  .object({
    id: z.string(),
    type: z.enum(['user', 'link']),
    access: SessionAccess,
    userId: z.number().int().nullable(),
    email: z.string().nullable(),
    expiresAt: z.string(),
    maxUses: z.number().int().nullable(),
    uses: z.number().int(),
    createdAt: z.string(),
  })
  .meta({ id: 'DfSessionInvitation' });

const Invite = z.union([
  z.object({ userId: z.number().int().positive(), access: SessionAccess }).strict(),
  z.object({ email: z.string().trim().max(254).pipe(z.email()), access: SessionAccess }).strict(),
  z
    .object({
      link: z.literal(true),
      access: SessionAccess,
      expiresAt: z.iso.datetime({ offset: true }).optional(),
      maxUses: z.number().int().min(1).max(10_000).optional(),
    })
    .strict(),
]);

/**
 * Sharing a session (docs/modules/device-testing.md, "Sharing"): invitations to coworkers and
 * shareable links, their lists and revocation, and accepting one.
 */
export async function sharingRoutes(app: FastifyInstance, opts: { platform: Platform; sessions: SessionPort; sharing: SharingService }): Promise<void> {
  const { platform, sessions, sharing } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** The session, when the caller may share it: 404 outside their workspace, 403 without the right. */
  const shareable = async (request: FastifyRequest, sessionId: string) => {
    const c = await caller(request, 'df:session:read');
    const session = await sessions.get(c, sessionId);
    await requireSessionShare(request, session);
    return { c, session };
  };
  const listed = (i: InvitationView): z.output<typeof Listed> => ({
    id: i.id, type: i.type, access: i.access, userId: i.userId, email: i.email, expiresAt: i.expiresAt, maxUses: i.maxUses, uses: i.uses, createdAt: i.createdAt,
  });

  r.post('/api/sessions/:sessionId/invitations', {
    schema: {
      tags,
      summary: 'Invite a coworker (by userId or email; mailed a link) or create a shareable link (its token and URL are in this answer only)',
      params: Params,
      body: Invite,
      response: { 201: Created },
    },
    handler: async (request, reply) => {
      const { c, session } = await shareable(request, request.params.sessionId);
      const created = await sharing.invite(session, c, request.body);
      reply.code(201).header('cache-control', 'no-store');
      return created;
    },
  });

  r.get('/api/sessions/:sessionId/invitations', {
    schema: { tags, summary: 'Invitations of coworkers to the session (not revoked)', params: Params, response: { 200: z.array(Listed) } },
    handler: async (request) => {
      const { session } = await shareable(request, request.params.sessionId);
      return (await listInvitations(platform.db, session.id, 'user')).map(listed);
    },
  });

  r.get('/api/sessions/:sessionId/invitations/links', {
    schema: { tags, summary: 'Shareable links of the session (not revoked; never their tokens)', params: Params, response: { 200: z.array(Listed) } },
    handler: async (request) => {
      const { session } = await shareable(request, request.params.sessionId);
      return (await listInvitations(platform.db, session.id, 'link')).map(listed);
    },
  });

  r.delete('/api/sessions/:sessionId/invitations/:invitationId', {
    schema: { tags, summary: "Revoke a coworker's invitation: the access it gave ends at once", params: z.object({ sessionId: idParam, invitationId: idParam }), response: { 204: z.null() } },
    handler: async (request, reply) => {
      const { c, session } = await shareable(request, request.params.sessionId);
      await sharing.revoke(session, c, request.params.invitationId, 'user');
      reply.code(204);
      return null;
    },
  });

  r.delete('/api/sessions/:sessionId/invitations/links/:linkId', {
    schema: { tags, summary: 'Revoke a shareable link: nobody can accept it any more, and the access it gave ends', params: z.object({ sessionId: idParam, linkId: idParam }), response: { 204: z.null() } },
    handler: async (request, reply) => {
      const { c, session } = await shareable(request, request.params.sessionId);
      await sharing.revoke(session, c, request.params.linkId, 'link');
      reply.code(204);
      return null;
    },
  });

  r.post('/api/session-invites/:token/accept', {
    schema: {
      tags,
      summary: "Accept an invitation or link: the caller gets its access to that one session. Needs no X-Workspace-Id (the token names the session); answers the session's workspace",
      params: z.object({ token: z.string().min(16).max(200).regex(/^[A-Za-z0-9_-]+$/) }),
      response: { 200: z.object({ sessionId: z.string(), workspaceId: z.number().int(), access: SessionAccess }) },
    },
    handler: async (request) => {
      const principal = requirePrincipal(request);
      return sharing.accept(request.params.token, { userId: principal.userId, companyId: principal.companyId });
    },
  });
}
