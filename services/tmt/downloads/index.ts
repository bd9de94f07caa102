import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import type { Platform } from '../../platform.js';
import type { DownloadKinds } from './kinds.js';
import { downloadRoutes } from './routes.js';

export { DownloadKinds, type DownloadKind, type DownloadObject, type DownloadScope } from './kinds.js';
export { contentDisposition, MAX_TTL_SECONDS, PUBLIC_DOWNLOAD_PATH } from './routes.js';
export { DOWNLOAD_TOKEN_TYPE, signDownloadToken, verifyDownloadToken, type DownloadGrant } from './token.js';

export interface DownloadsFeatureOptions {
  platform: Platform;
  /** The kinds other features registered (they are registered before this feature). */
  kinds: DownloadKinds;
}

/** Pre-authorized download links (`/tmt/api/v1/downloads`) to the kinds other features register, served without a credential. */
export const downloadsFeature = fp<DownloadsFeatureOptions>(
  routePlugins(downloadRoutes),
  // The kinds it hands out: attachments and test-session reports.
  { name: 'tmt-downloads', fastify: '5.x', dependencies: ['tmt-attachments', 'tmt-test-sessions'] },
);
