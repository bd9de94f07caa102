import type { FastifyInstance } from 'fastify';
import type { FsBlobStore } from '#shared/blob/index.js';
import { catalogRoutes } from './catalog.js';
import { oneFileRoutes } from './files.js';
import type { FileRoutesOptions } from './schemas.js';
import { signedBlobRoutes } from './signed-blobs.js';
import { testApkRoutes } from './test-apks.js';
import { uploadRoutes } from './uploads.js';

export type { FileRoutesOptions };

/**
 * `/df/api/files/**` (docs/modules/files.md): uploads straight to storage (signed
 * single PUT, or multipart with a signed URL per part), confirm, download by a short-lived signed URL,
 * the app catalog and its versions, a test APK version's tests, deletes and the catalog backfill. Reading needs
 * `df:session:read`; uploading and deleting `df:file:manage`. `X-Api-Key` works on presigned-upload and
 * confirm when no bearer token is sent. Another company's or workspace's ids are 404.
 */
export async function fileRoutes(app: FastifyInstance, opts: FileRoutesOptions): Promise<void> {
  for (const routes of [uploadRoutes, catalogRoutes, testApkRoutes, oneFileRoutes]) await app.register(routes, opts);
  const { blobs } = opts.platform;
  if (blobs.kind === 'fs' && 'serveSigned' in blobs) await app.register(signedBlobRoutes, { ...opts, blobs: blobs as FsBlobStore });
}
