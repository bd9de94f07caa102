import type { FastifyRequest } from 'fastify';
import type { Platform } from '../../../platform.js';
import { workspaceLookup } from '../../http.js';
import type { SessionPort } from '../../core/session-port.js';
import { sessionContent } from '../../core/session-access.js';
import type { AccessibilityService } from '../service.js';

/** What the accessibility routes need. */
export interface AccessibilityRoutesOptions {
  platform: Platform;
  sessions: SessionPort;
  accessibility: AccessibilityService;
}

/** How an accessibility route finds its audit, by what the caller reads of it. */
export function auditLookup({ platform, accessibility }: Pick<AccessibilityRoutesOptions, 'platform' | 'accessibility'>) {
  const readAudit = workspaceLookup('audit', 'df:session:read', (c, auditId) => accessibility.get(c, auditId));
  /**
   * An audit's scans, findings and exports show its session's screen (screenshots, UI trees, the
   * elements' text): the session's content, for those who may see it (docs/modules/device-testing.md, "Sharing").
   */
  const auditSessionContent = async (request: FastifyRequest, audit: { sessionId: string | null }) => {
    if (audit.sessionId !== null) await sessionContent(platform.db, request, audit.sessionId);
  };
  return {
    readAudit,
    auditSessionContent,
    readAuditContent: async (request: FastifyRequest, auditId: string) => {
      const read = await readAudit(request, auditId);
      await auditSessionContent(request, read.audit);
      return read;
    },
  };
}
