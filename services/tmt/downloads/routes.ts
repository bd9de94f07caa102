import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '#shared/errors.js';
import { requirePermission, requirePrincipal, requireWorkspace } from '#shared/http/principal.js';
import type { Platform } from '../../platform.js';
import type { DownloadKinds } from './kinds.js';
import { signDownloadToken, verifyDownloadToken } from './token.js';

const tags = ['Test management: downloads'];
export const PUBLIC_DOWNLOAD_PATH = '/tmt/api/v1/public/download';
const DEFAULT_TTL_SECONDS = 3600;
/** A link lives at most a week: long enough to hand a build to someone, short enough to stop leaking. */
export const MAX_TTL_SECONDS = 7 * 86_400;

/** `Content-Disposition: attachment` with an ASCII fallback and the exact name in RFC 5987 form. */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_') || 'download';
  const exact = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

/**
 * `POST /tmt/api/v1/downloads` makes a signed, expiring link to one object of the caller's workspace;
 * `GET /tmt/api/v1/public/download/<token>` serves it to anyone holding the link. An unknown, altered
 * or expired token, and an object deleted since, all answer the same 404.
 */
export async function downloadRoutes(app: FastifyInstance, opts: { platform: Platform; kinds: DownloadKinds }): Promise<void> {
  const { platform, kinds } = opts;
  const issuer = platform.config.JWT_ISSUER;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/tmt/api/v1/downloads', {
    schema: {
      tags,
      summary: 'Create a pre-authorized download link to one object of the workspace (the kind decides the permission, TMT_READ for attachments)',
      body: z.object({
        kind: z.string().min(1).max(64),
        id: z.string().min(1).max(128).regex(/^[A-Za-z0-9_-]+$/, 'an id'),
        expiresInSeconds: z.number().int().min(1).max(MAX_TTL_SECONDS).default(DEFAULT_TTL_SECONDS),
      }),
      response: {
        201: z
          .object({ url: z.string(), absoluteUrl: z.string(), expiresAt: z.string(), kind: z.string(), id: z.string() })
          .meta({ id: 'TmtDownloadLink' }),
      },
    },
    handler: async (request, reply) => {
      const principal = requirePrincipal(request);
      const workspace = requireWorkspace(request);
      const { kind: kindName, id, expiresInSeconds } = request.body;
      const kind = kinds.get(kindName);
      if (!kind) {
        throw new AppError('VALIDATION_FAILED', 'Request validation failed', {
          details: [{ path: 'kind', message: `Unknown kind "${kindName}"; one of: ${kinds.names().join(', ')}` }],
        });
      }
      await requirePermission(request, kind.permission);
      const scope = { companyId: workspace.companyId, workspaceId: workspace.id };
      if (!(await kinds.exists(kindName, scope, id))) throw new AppError('NOT_FOUND', 'Object not found');
      const { token, expiresAt } = await signDownloadToken(
        platform.keys,
        issuer,
        { kind: kindName, id, ...scope, userId: principal.userId },
        platform.now(),
        expiresInSeconds * 1000,
      );
      const url = `${PUBLIC_DOWNLOAD_PATH}/${token}`;
      reply.code(201).header('cache-control', 'no-store');
      return { url, absoluteUrl: platform.publicAddress.link(url), expiresAt: expiresAt.toISOString(), kind: kindName, id };
    },
  });

  // A wildcard rather than a parameter: the router caps parameter lengths, and a signed token is long.
  r.get(`${PUBLIC_DOWNLOAD_PATH}/*`, {
    schema: {
      tags,
      summary: 'Download the object a pre-authorized link names; no credential. Unknown, altered or expired links answer 404',
      security: [],
      params: z.object({ '*': z.string() }),
    },
    handler: async (request, reply) => {
      const token = request.params['*'];
      const gone = new AppError('NOT_FOUND', 'Download link not found or expired');
      if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token)) throw gone;
      const grant = await verifyDownloadToken(platform.keys, issuer, token, platform.now());
      const kind = grant ? kinds.get(grant.kind) : undefined;
      if (!grant || !kind) throw gone;
      const found = await kind.resolve({ companyId: grant.companyId, workspaceId: grant.workspaceId }, grant.id);
      if (!found) throw gone;
      reply
        .header('content-type', found.contentType)
        .header('content-disposition', contentDisposition(found.filename))
        .header('x-content-type-options', 'nosniff')
        // Served from the platform's origin: never as a page that could run script there.
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, no-store')
        .header('referrer-policy', 'no-referrer');
      if (found.size !== undefined) reply.header('content-length', String(found.size));
      return reply.send(found.stream);
    },
  });
}
