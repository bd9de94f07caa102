import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SignedRequest } from '#shared/blob/index.js';
import { clientAddress } from '#shared/http/client-address.js';
import { idParam } from '../../http.js';
import type { Platform } from '../../../platform.js';
import type { FileService } from '../service.js';

/** What the `/df/api/files` routes share: their options, schemas and the URLs they hand out. */

export interface FileRoutesOptions {
  platform: Platform;
  files: FileService;
}

export const tags = ['Device testing: files and app catalog'];

export const File = z
  .object({
    id: z.string(),
    name: z.string(),
    size: z.number(),
    contentType: z.string(),
    sha256: z.string().nullable(),
    status: z.enum(['pending', 'ready', 'failed']),
    kind: z.enum(['app', 'file']),
    appId: z.string().optional(),
    versionId: z.string().optional(),
    createdAt: z.string(),
    uploadedBy: z.number(),
  })
  .meta({ id: 'DfFile' });

export const FileParams = z.object({ fileId: idParam });

/** Makes a URL the platform serves itself absolute, with the address the client used. */
export function absoluteUrls(app: FastifyInstance) {
  const behindGateway = app.prefix === '';
  const absolute = (request: FastifyRequest, url: string) => {
    if (/^https?:\/\//.test(url)) return url;
    const { proto, host } = clientAddress(request, behindGateway);
    return `${proto}://${host}${url}`;
  };
  return {
    absolute,
    signed: (request: FastifyRequest, s: SignedRequest) => ({ url: absolute(request, s.url), method: s.method, headers: s.headers, expiresAt: s.expiresAt.toISOString() }),
  };
}
