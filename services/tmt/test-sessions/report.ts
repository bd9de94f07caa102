import { Readable } from 'node:stream';
import { findTestCase } from '#projections/tmt-test-cases/index.js';
import type { Platform } from '../../platform.js';
import type { DownloadKind } from '../downloads/index.js';
import type { TestSessionService } from './service.js';

const COLUMNS = ['testCaseId', 'title', 'priority', 'status', 'notes', 'durationMs', 'recordedAt', 'recordedBy'] as const;

/** RFC 4180 field; a leading formula character is quoted away so spreadsheets do not evaluate it. */
function csvField(value: unknown): string {
  let s = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n']/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/**
 * `test-session-report`: a test session as CSV — one line per test case of the session with its
 * current result (empty when none yet) — for pre-authorized download links
 * (`POST /tmt/api/v1/downloads {kind: "test-session-report", id}`).
 */
export function testSessionReportKind(platform: Platform, sessions: Pick<TestSessionService, 'get'>): DownloadKind {
  return {
    permission: 'TMT_READ',
    exists: async (scope, id) => (await sessions.get(scope, id)) !== null,
    async resolve(scope, id) {
      const session = await sessions.get(scope, id);
      if (!session) return null;
      const current = new Map(session.results.map((r) => [r.testCaseId, r]));
      const lines = [COLUMNS.join(',')];
      for (const caseId of session.testCases) {
        const testCase = await findTestCase(platform.db, scope, caseId);
        const result = current.get(caseId);
        const by = result ? ('userId' in result.recordedBy ? `user:${result.recordedBy.userId}` : `engine:${result.recordedBy.engineId}`) : '';
        lines.push(
          [caseId, testCase?.title ?? '', testCase?.priority ?? '', result?.status ?? 'untested', result?.notes ?? '', result?.durationMs ?? '', result?.recordedAt ?? '', by]
            .map(csvField)
            .join(','),
        );
      }
      const body = Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
      const safeName = session.name.replace(/[^A-Za-z0-9._ -]+/g, '_').slice(0, 80) || 'session';
      return { filename: `${safeName}-${session.id}.csv`, contentType: 'text/csv; charset=utf-8', size: body.length, stream: Readable.from([body]) };
    },
  };
}
