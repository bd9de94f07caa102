import { useQuery } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import type { AccessibilityAudit as AuditSummary } from '@qa-platform/client';
import { api } from '../api';
import { Link } from '../router';
import { ErrorNote, formatTime } from '../ui';

/** Platforms whose devices answer an accessibility scan (browser devices with axe-core, Android with its rules). */
export const AUDITED_PLATFORMS = new Set(['web', 'android']);

type Impact = keyof AuditSummary['findingCounts'];

/** Where a run started from the session page stands. */
interface Run {
  phase: 'starting' | 'scanning' | 'completing' | 'done' | 'failed';
  auditId: string | null;
  error: unknown;
}

const PHASES: Record<Run['phase'], string> = {
  starting: 'Starting the accessibility audit…',
  scanning: 'Scanning the screen for accessibility problems…',
  completing: 'Finishing the report…',
  done: 'Accessibility audit complete',
  failed: 'The accessibility audit failed',
};

/**
 * An accessibility audit of what the session's screen shows now: a report on the session
 * (`POST .../accessibility/audits`), one scan of the current screen, then the report closed. While it
 * runs the report's state is read every second (its scan count); at the end, a link to the report.
 * The report is named after the session (`label`) and the time it started.
 */
export function useSessionAudit(sessionId: string, label: string) {
  const [run, setRun] = useState<Run | null>(null);
  const audit = useQuery({
    queryKey: ['a11y', 'audit', run?.auditId],
    queryFn: () => api<AuditSummary>(`/df/api/accessibility/audits/${run!.auditId}`),
    enabled: Boolean(run?.auditId),
    refetchInterval: (q) => (q.state.data?.status === 'completed' ? false : 1_000),
  });
  const start = async () => {
    const base = `/df/api/sessions/${sessionId}/accessibility/audits`;
    let auditId: string | null = null;
    try {
      setRun({ phase: 'starting', auditId, error: null });
      auditId = (await api<AuditSummary>(base, { method: 'POST', body: { name: `${label} · ${formatTime(new Date().toISOString())}` } })).id;
      setRun({ phase: 'scanning', auditId, error: null });
      await api(`${base}/${auditId}/scans`, { method: 'POST' });
      setRun({ phase: 'completing', auditId, error: null });
      await api(`${base}/${auditId}/complete`, { method: 'POST' });
      await audit.refetch();
      setRun({ phase: 'done', auditId, error: null });
    } catch (error) {
      setRun({ phase: 'failed', auditId, error });
    }
  };
  const running = run !== null && run.phase !== 'done' && run.phase !== 'failed';
  return { run, audit: audit.data?.id === run?.auditId ? audit.data : undefined, start, running };
}

export type SessionAudit = ReturnType<typeof useSessionAudit>;

/** The toolbar's "Run accessibility audit". */
export function AuditButton({ audit }: { audit: SessionAudit }) {
  return (
    <button type="button" disabled={audit.running} onClick={() => void audit.start()}>
      Run accessibility audit
    </button>
  );
}

const total = (c: Record<Impact, number>) => c.critical + c.serious + c.moderate + c.minor;

/** The run's progress and, at its end, the report's figures and link: a polite status region. */
export function AuditStatus({ audit }: { audit: SessionAudit }) {
  const { run, audit: report } = audit;
  if (!run) return null;
  return (
    <div class="card audit-status" role="region" aria-label="Accessibility audit">
      <p role="status" aria-live="polite">
        {PHASES[run.phase]}
        {report ? ` · ${report.scanCount} ${report.scanCount === 1 ? 'scan' : 'scans'}` : ''}
        {run.phase === 'done' && report ? ` · ${total(report.findingCounts)} findings (${report.findingCounts.critical} critical, ${report.findingCounts.serious} serious)` : ''}
      </p>
      {audit.running ? <progress aria-label="Accessibility audit in progress" /> : null}
      <ErrorNote error={run.error} />
      {run.auditId && (run.phase === 'done' || run.phase === 'failed') ? <Link href={`/accessibility/${run.auditId}`}>Open the accessibility report</Link> : null}
    </div>
  );
}
