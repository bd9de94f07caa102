import type { FastifyRequest } from 'fastify';
import { toSessionView } from '#projections/df-sessions/index.js';
import type { Platform } from '../../../platform.js';
import { workspaceLookup, requireSessionControl } from '../../http.js';
import type { ScreenHub } from '../../core/screen-hub.js';
import { sessionContent } from '../../core/session-access.js';
import type { SharingService } from '../../sharing/index.js';
import type { SessionService } from '../service.js';

/** What the `/df/api/sessions` routes need. */
export interface SessionRoutesOptions {
  platform: Platform;
  sessions: SessionService;
  hub: ScreenHub;
  sharing: SharingService;
}

/** How a session route finds its session, by what the caller asks to do with it. */
export function sessionLookup({ platform, sessions }: Pick<SessionRoutesOptions, 'platform' | 'sessions'>) {
  /** The session for a read, 404 when it is not in the caller's workspace. */
  const readable = workspaceLookup('session', 'df:session:read', (c, sessionId) => sessions.get(c, sessionId));
  return {
    readable,
    /** The session for a change: its owner with `df:session:create`, others with `df:session:manage`. */
    controllable: async (request: FastifyRequest, sessionId: string) => {
      const found = await readable(request, sessionId);
      await requireSessionControl(request, found.session);
      return found;
    },
    /** The session for its content (screen, device, data): {@link sessionContent}, the one rule. */
    content: (request: FastifyRequest, sessionId: string, need: 'view' | 'control' = 'view') => sessionContent(platform.db, request, sessionId, need),
    /** The session as it is now, as the routes answer it. */
    refreshed: async (c: { companyId: number; workspaceId: number }, id: string) => toSessionView(await sessions.get(c, id)),
  };
}
