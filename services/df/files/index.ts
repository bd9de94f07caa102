import fp from 'fastify-plugin';
import { fileRoutes, type FileRoutesOptions } from './routes/index.js';

/** Files and the app catalog (`/df/api/files`). */
export const filesFeature = fp(
  async (app, opts: FileRoutesOptions) => {
    await app.register(fileRoutes, opts);
  },
  { name: 'df-files', dependencies: ['df-operations'], fastify: '5.x' },
);

export type { FileRoutesOptions as FilesFeatureOptions } from './routes/index.js';
export { CatalogInstaller } from './install.js';
export { FileService } from './service.js';
export { TestApkListings } from './test-apks.js';
