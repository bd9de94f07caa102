import type { FastifyInstance } from 'fastify';
import { tmtAttachmentsProjection } from '#projections/tmt-attachments/index.js';
import { tmtMockServicesProjection } from '#projections/tmt-mock-services/index.js';
import { tmtUserGroupsProjection } from '#projections/tmt-user-groups/index.js';
import type { Projection } from '#projections/types.js';
import type { Platform } from '../platform.js';
import { attachmentDownloadKind, attachmentRoutes } from './attachments/index.js';
import { DownloadKinds, downloadRoutes } from './downloads/index.js';
import type { TmtDeps } from './deps.js';
import { mockServiceRoutes } from './mock-services/index.js';
import { userGroupRoutes } from './user-groups/index.js';

/** Read models of user groups, attachments and mock services. */
export const toolsProjections: readonly Projection[] = [tmtUserGroupsProjection, tmtAttachmentsProjection, tmtMockServicesProjection];

/**
 * The tools' routes, with their full paths. `downloads` is the registry of downloadable kinds: another
 * feature adds its own (`downloads.register('test-session-report', {...})`) before the routes are served.
 */
export function createWorkspaceTools(platform: Platform, _deps: TmtDeps) {
  const downloads = new DownloadKinds();
  downloads.register('attachment', attachmentDownloadKind(platform));
  return {
    downloads,
    routes: async (app: FastifyInstance) => {
      await app.register(userGroupRoutes, { platform });
      await app.register(attachmentRoutes, { platform });
      await app.register(downloadRoutes, { platform, kinds: downloads });
      await app.register(mockServiceRoutes, { platform });
    },
  };
}
