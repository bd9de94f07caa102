import fp from 'fastify-plugin';
import type { SessionRecord } from '#projections/df-sessions/index.js';
import type { Platform } from '../../platform.js';
import type { Caller } from '../http.js';
import type { ScreenHub } from '../core/screen-hub.js';
import type { SharingService } from '../sharing/index.js';
import { deviceContentRoutes, sessionRoutes } from './routes/index.js';
import type { SessionService } from './service.js';

export interface SessionsFeatureOptions {
  platform: Platform;
  sessions: SessionService;
  hub: ScreenHub;
  sharing: SharingService;
  /** Installs an app of the catalog on the session's device (the files feature's installer); answers the operation's id. */
  installFromCatalog: (caller: Caller, session: SessionRecord, what: { versionId?: string | undefined; fileId?: string | undefined }) => Promise<string>;
}

/** Sessions (`/df/api/sessions`): open, drive and end a session, its timeline, artifacts and recordings, and the apps and files of its device. */
export const sessionsFeature = fp(
  async (app, opts: SessionsFeatureOptions) => {
    await app.register(sessionRoutes, opts);
    await app.register(deviceContentRoutes, { db: opts.platform.db, sessions: opts.sessions, installFromCatalog: opts.installFromCatalog });
  },
  { name: 'df-sessions', dependencies: ['df-devices', 'df-sharing'], fastify: '5.x' },
);

export { SessionService } from './service.js';
export { SessionSchema } from './routes/index.js';
export { videoFileName } from './result-videos.js';
export { deviceSessionsForResults, type DeviceSessionsForResults, type DeviceSessionVideo, type ResultReader } from './result-videos.js';
