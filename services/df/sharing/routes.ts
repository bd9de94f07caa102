import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listInvitations, type InvitationView } from '#projections/df-session-sharing/index.js';
import { SessionAccess } from '#events/df/sharing.js';
import { requirePrincipal } from '#shared/http/principal.js';
import type { Platform } from '../../platform.js';
import { caller, idParam, noContent, requireSessionShare } from '../http.js';
import type { SessionPort } from '../core/session-port.js';
import type { SharingService } from './service.js';

const tags = ['Device testing: sharing'];
const Params = z.object({ sessionId: idParam });

/** Which invitation or link, and the access it gives: the start of every answer about one. */
const invitation = { id: z.string(), type: z.enum(['user', 'link']), access: SessionAccess };
/** Until when and how often it may be accepted, how often it was, and when it was made: the end of every answer. */
const terms = { expiresAt: z.string(), maxUses: z.number().int().nullable(), uses: z.number().int(), createdAt: z.string() };
/** As created: a link's token and URL are in this answer only. */
const Created = z.object({ ...invitation, url: z.string().optional(), token: z.string().optional(), ...terms }).meta({ id: 'DfSessionInvitationCreated' });
/** As listed: whom a coworker's invitation names. */
const Listed = z.object({ ...invitation, userId: z.number().int().nullable(), email: z.string().nullable(), ...terms }).meta({ id: 'DfSessionInvitation' });

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

  /** Revokes a coworker's invitation or a shareable link of a session the caller may share. */
  const revoke = async (request: FastifyRequest, sessionId: string, invitationId: string, type: 'user' | 'link') => {
    const { c, session } = await shareable(request, sessionId);
    await sharing.revoke(session, c, invitationId, type);
  };

  r.delete('/api/sessions/:sessionId/invitations/:invitationId', {
    schema: { tags, summary: "Revoke a coworker's invitation: the access it gave ends at once", params: z.object({ sessionId: idParam, invitationId: idParam }), response: { 204: z.null() } },
    handler: async (request, reply) => noContent(reply, revoke(request, request.params.sessionId, request.params.invitationId, 'user')),
  });

  r.delete('/api/sessions/:sessionId/invitations/links/:linkId', {
    schema: { tags, summary: 'Revoke a shareable link: nobody can accept it any more, and the access it gave ends', params: z.object({ sessionId: idParam, linkId: idParam }), response: { 204: z.null() } },
    handler: async (request, reply) => noContent(reply, revoke(request, request.params.sessionId, request.params.linkId, 'link')),
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
