import { useQuery } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import type { AccessibilityAudit as AuditRef, AccessibilityComparison as Comparison, AccessibilityExport as Export } from '@qa-platform/client';
import { api, download } from '../api';
import { Empty, ErrorNote, formatTime, Loading, useAction } from '../ui';

const auditLabel = (a: AuditRef) => `${a.name ?? a.id} (${formatTime(a.createdAt)})`;

export function CompareReports({ id }: { id: string }) {
  const others = useQuery({
    queryKey: ['a11y', 'audits', 'others', id],
    queryFn: async () => (await api<{ content: AuditRef[] }>('/df/api/accessibility/audits/page', { query: { size: 100, sortDir: 'desc' } })).content.filter((a) => a.id !== id),
  });
  const [other, setOther] = useState('');
  const [result, setResult] = useState<{ with: string; comparison: Comparison } | null>(null);
  const action = useAction();
  return (
    <div class="card stack" role="region" aria-label="Compare with another report">
      <h2>Compare with another report</h2>
      {others.isLoading ? <Loading /> : null}
      <ErrorNote error={others.error} />
      {others.data && others.data.length === 0 ? <Empty>No other report in this workspace to compare with.</Empty> : null}
      {others.data && others.data.length > 0 ? (
        <form
          class="row"
          aria-label="Compare"
          onSubmit={(e) => {
            e.preventDefault();
            if (!other) return;
            void action.run(async () => {
              const comparison = await api<Comparison>(`/df/api/accessibility/audits/${id}/compare`, { query: { with: other } });
              setResult({ with: other, comparison });
            });
          }}
        >
          <label class="field">
            <span>Earlier report</span>
            <select value={other} required onChange={(e) => setOther((e.target as HTMLSelectElement).value)}>
              <option value="">Choose a report…</option>
              {others.data.map((a) => (
                <option value={a.id}>{auditLabel(a)}</option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={action.busy}>
            Compare
          </button>
        </form>
      ) : null}
      <ErrorNote error={action.error} />
      {result ? (
        <div class="columns-3">
          {(['new', 'fixed', 'unchanged'] as const).map((k) => (
            <section aria-label={`${k[0]!.toUpperCase()}${k.slice(1)} findings`}>
              <h3>
                {k === 'new' ? 'New here' : k === 'fixed' ? 'Fixed since' : 'Unchanged'} ({result.comparison[k].length})
              </h3>
              {result.comparison[k].length === 0 ? (
                <p class="muted small">None.</p>
              ) : (
                <ul class="plain-list">
                  {result.comparison[k].map((f) => (
                    <li>
                      <strong>{f.ruleId}</strong> <span class="muted small">{f.impact ?? ''}</span> <code class="small">{f.element.selector}</code>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          ))}
        </div>
      ) : null}
    </div>
  );
}

export function ExportReport({ id, name }: { id: string; name: string }) {
  const [format, setFormat] = useState<Export['format']>('html');
  const [exportId, setExportId] = useState<string | null>(null);
  const action = useAction();
  // Followed every second while running: an export takes a moment (HTML embeds the screenshots).
  const exp = useQuery({
    queryKey: ['a11y', 'export', id, exportId],
    queryFn: () => api<Export>(`/df/api/accessibility/audits/${id}/exports/${exportId}`),
    enabled: exportId !== null,
    refetchInterval: (q) => (q.state.data?.state === 'running' || !q.state.data ? 1_000 : false),
  });
  const file = `${name.replace(/[^\w.-]+/g, '-') || 'accessibility-report'}.${exp.data?.format ?? format}`;
  return (
    <div class="card stack" role="region" aria-label="Export the report">
      <h2>Export</h2>
      <form
        class="row"
        aria-label="Export"
        onSubmit={(e) => {
          e.preventDefault();
          void action.run(async () => {
            const made = await api<{ id: string }>(`/df/api/accessibility/audits/${id}/exports`, { method: 'POST', body: { format } });
            setExportId(made.id);
          });
        }}
      >
        <label class="field">
          <span>Format</span>
          <select value={format} onChange={(e) => setFormat((e.target as HTMLSelectElement).value as Export['format'])}>
            <option value="html">HTML (reads offline, with screenshots)</option>
            <option value="csv">CSV (a row per finding)</option>
            <option value="json">JSON</option>
          </select>
        </label>
        <button type="submit" disabled={action.busy || exp.data?.state === 'running'}>
          Export
        </button>
      </form>
      <ErrorNote error={action.error ?? exp.error} />
      {exportId && (!exp.data || exp.data.state === 'running') ? <Loading label="Preparing the export…" /> : null}
      {exp.data?.state === 'failed' ? (
        <p class="error" role="alert">
          The export failed: {exp.data.error ?? 'unknown error'}
        </p>
      ) : null}
      {exp.data?.state === 'succeeded' && exp.data.url ? (
        <p class="ok row" role="status">
          <span>The export is ready ({exp.data.format.toUpperCase()}).</span>
          <button type="button" onClick={() => action.run(() => download(exp.data!.url!, file))}>
            Download {file}
          </button>
        </p>
      ) : null}
    </div>
  );
}
