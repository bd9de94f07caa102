import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import type { AccessibilityAudit as Audit, AccessibilityFinding as Finding } from '@qa-platform/client';
import { api } from '../api';
import { Link } from '../router';
import { useSession } from '../session-context';
import { DataTable, Empty, ErrorNote, formatTime, Loading, NotAllowed, Pager, QueryTable } from '../ui';
import { CompareReports, ExportReport } from './accessibility-tools';

type Impact = keyof Audit['findingCounts'];

const TRIAGE = ['open', 'confirmed', 'false_positive', 'wont_fix', 'fixed'] as const;
const IMPACTS: Impact[] = ['critical', 'serious', 'moderate', 'minor'];

function counts(c: Record<Impact, number> | undefined) {
  return IMPACTS.map((i) => `${c?.[i] ?? 0} ${i}`).join(' · ');
}

/** Accessibility reports of the workspace. */
export function AccessibilityPage() {
  const { can } = useSession();
  const [page, setPage] = useState(0);
  const allowed = can('df:session:read');
  const audits = useQuery({
    queryKey: ['a11y', 'audits', page],
    queryFn: () => api<{ content: Audit[]; totalPages: number; totalElements: number }>('/df/api/accessibility/audits/page', { query: { page, size: 20, sortDir: 'desc' } }),
    enabled: allowed,
  });
  if (!allowed) return <NotAllowed title="Accessibility">Accessibility reports need the permission key df:session:read in this workspace.</NotAllowed>;
  return (
    <section class="stack">
      <h1>Accessibility</h1>
      <QueryTable
        query={audits} rows={(d) => d.content} rowKey={(a) => a.id} caption="Accessibility reports"
        empty={<>No accessibility report yet: start one from a session's page ("Run accessibility audit") or through the API.</>}
        after={(d) => <Pager page={page} totalPages={d.totalPages} total={d.totalElements} onPage={setPage} />}
        columns={[
          { header: 'Report', cell: (a) => <Link href={`/accessibility/${a.id}`}>{a.name ?? a.id}</Link> },
          { header: 'Platform', cell: (a) => a.platform },
          { header: 'Status', cell: (a) => <span class={`badge ${a.status}`}>{a.status.replace('_', ' ')}</span> },
          { header: 'Scans', cell: (a) => a.scanCount },
          { header: 'Findings', cell: (a) => counts(a.findingCounts) },
          { header: 'Started', class: 'nowrap', cell: (a) => formatTime(a.createdAt) },
        ]}
      />
    </section>
  );
}

/** One report: its figures and findings, each with a triage control. */
export function AccessibilityAuditPage({ id }: { id: string }) {
  const { can } = useSession();
  const qc = useQueryClient();
  const audit = useQuery({ queryKey: ['a11y', 'audit', id], queryFn: () => api<Audit>(`/df/api/accessibility/audits/${id}`) });
  const findings = useQuery({ queryKey: ['a11y', 'findings', id], queryFn: () => api<Finding[]>(`/df/api/accessibility/audits/${id}/findings`) });
  const [error, setError] = useState<unknown>(null);
  const triage = can('df:accessibility:use');
  return (
    <section class="stack">
      <p>
        <Link href="/accessibility">All reports</Link>
      </p>
      {audit.isLoading ? (
        <Loading />
      ) : audit.error ? (
        <>
          <h1>Accessibility report</h1>
          <ErrorNote error={audit.error} />
        </>
      ) : audit.data ? (
        <>
          <h1>{audit.data.name ?? 'Accessibility report'}</h1>
          <p>
            {audit.data.platform} · {audit.data.status.replace('_', ' ')} · {audit.data.scanCount} scans · {counts(audit.data.findingCounts)} · started{' '}
            {formatTime(audit.data.createdAt)}
            {audit.data.sessionId ? (
              <>
                {' '}
                · <Link href={`/sessions/${audit.data.sessionId}`}>session</Link>
              </>
            ) : null}
          </p>
        </>
      ) : null}
      <ErrorNote error={error} />
      {audit.data ? (
        <div class="split even">
          <CompareReports id={id} />
          <ExportReport id={id} name={audit.data.name ?? `accessibility-${id}`} />
        </div>
      ) : null}
      <h2>Findings</h2>
      {findings.isLoading ? (
        <Loading />
      ) : findings.error ? (
        <ErrorNote error={findings.error} />
      ) : !findings.data?.length ? (
        <Empty>No finding in this report.</Empty>
      ) : (
        <DataTable
          caption="Findings"
          rows={findings.data}
          rowKey={(f) => f.id}
          columns={[
            { header: 'Rule', cell: (f) => (f.helpUrl ? <a href={f.helpUrl} target="_blank" rel="noreferrer">{f.ruleId}</a> : f.ruleId) },
            { header: 'Impact', cell: (f) => f.impact ?? '—' },
            { header: 'WCAG', cell: (f) => f.wcag.join(', ') },
            { header: 'Problem', cell: (f) => f.description },
            { header: 'Element', cell: (f) => <code>{f.element.selector}</code> },
            {
              header: 'Triage',
              cell: (f) =>
                triage ? (
                  <select
                    aria-label={`Triage of ${f.ruleId} on ${f.element.selector}`}
                    value={f.triage?.status ?? 'open'}
                    onChange={async (e) => {
                      setError(null);
                      try {
                        await api(`/df/api/accessibility/findings/${f.id}/triage`, { method: 'PATCH', body: { status: (e.target as HTMLSelectElement).value } });
                        await qc.invalidateQueries({ queryKey: ['a11y', 'findings', id] });
                      } catch (err) {
                        setError(err);
                      }
                    }}
                  >
                    {TRIAGE.map((t) => (
                      <option value={t}>{t.replace('_', ' ')}</option>
                    ))}
                  </select>
                ) : (
                  (f.triage?.status ?? 'open').replace('_', ' ')
                ),
            },
          ]}
        />
      )}
    </section>
  );
}
