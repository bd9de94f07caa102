import type { FastifyInstance } from 'fastify';
import { activityRoutes } from './activities.js';
import { artifactRoutes } from './artifacts.js';
import { MAX_APP_BYTES, MAX_PUSH_BYTES, type DeviceContentRoutesOptions } from './device-content.js';
import { deviceAppRoutes } from './device-apps.js';
import { deviceFileRoutes } from './device-files.js';
import { deviceRoutes } from './device.js';
import { sessionListRoutes } from './lists.js';
import type { SessionRoutesOptions } from './lookup.js';
import { recordingRoutes } from './recording.js';
import { singleSessionRoutes } from './session.js';
import { videoRoutes } from './video.js';
import { viewerRoutes } from './viewers.js';

export { SessionSchema } from './schemas.js';
export { MAX_APP_BYTES, MAX_PUSH_BYTES, type DeviceContentRoutesOptions, type SessionRoutesOptions };

/** `/df/api/sessions`: sessions, their content, and device control (in this order in the OpenAPI document). */
export async function sessionRoutes(app: FastifyInstance, opts: SessionRoutesOptions): Promise<void> {
  for (const routes of [sessionListRoutes, singleSessionRoutes, activityRoutes, artifactRoutes, recordingRoutes, videoRoutes, deviceRoutes, viewerRoutes]) await app.register(routes, opts);
}

/**
 * `/df/api/sessions/{id}/apps|app-helpers|files|folders`: apps and files of the session's device,
 * content of the session (docs/modules/device-testing.md, "Sharing"). Reading them (the apps, their
 * presence, a folder, a file's bytes) needs access to the session's content; changing them needs
 * control of the session and `df:app:install`. Every change and every file read is an activity on
 * the session's timeline. Devices without apps or files (browser devices) answer 409
 * `DEVICE_UNSUPPORTED`.
 */
export async function deviceContentRoutes(app: FastifyInstance, opts: DeviceContentRoutesOptions): Promise<void> {
  await app.register(async (scope) => {
    await scope.register((await import('@fastify/multipart')).default, { limits: { fileSize: Math.max(MAX_APP_BYTES, MAX_PUSH_BYTES) + 1, files: 1, fields: 10 } });
    await scope.register(deviceAppRoutes, opts);
    await scope.register(deviceFileRoutes, opts);
  });
}
