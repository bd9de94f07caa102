import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { api, download } from '../api';
import { Link, navigate } from '../router';
import { ConfirmButton, DataTable, ErrorNote, formatClock, formatTime, Loading, QueryTable, Select, useAction } from '../ui';

type RunState = 'queued' | 'running' | 'passed' | 'failed' | 'error' | 'cancelled';

interface Counts {
  total: number;
  passed: number;
  failed: number;
  flaky: number;
  skipped: number;
  notRun: number;
}

interface Shard {
  deviceId: string;
  state: string;
  tests: number;
  startedAt: string | null;
  endedAt: string | null;
}

interface TestRun {
  id: string;
  name: string | null;
  state: RunState;
  reason?: string | null;
  total: number;
  queuedAt?: string;
  startedAt?: string | null;
  endedAt?: string | null;
  /** Absent while the run waits for its plan. */
  counts: Counts | null;
  shards?: Shard[];
  testSessionId?: string | null;
}

interface Artifact {
  name: string;
  fileId: string;
  /** Where its bytes download: an artifact of the shard's device session. */
  url?: string;
}

/** One test's attempt on one device. */
interface TestRow {
  className: string;
  methodName: string;
  deviceId: string | null;
  attempt: number;
  outcome: 'passed' | 'failed' | 'errored' | 'skipped' | 'flaky';
  durationMs: number | null;
  message?: string | null;
  stack?: string | null;
  finishedAt?: string | null;
  artifacts?: Artifact[];
  /** The device log between the test's start and end. */
  logcat?: string[];
}

const FINAL: readonly RunState[] = ['passed', 'failed', 'error', 'cancelled'];
const STATE_WORDS: Record<RunState, string> = { queued: 'Queued', running: 'Running', passed: 'Passed', failed: 'Failed', error: 'Could not complete', cancelled: 'Cancelled' };
const OUTCOME_WORDS: Record<TestRow['outcome'], string> = { passed: 'Passed', failed: 'Failed', errored: 'Errored', skipped: 'Skipped', flaky: 'Flaky' };
const BAD = new Set(['failed', 'errored']);

const testName = (t: Pick<TestRow, 'className' | 'methodName'>) => `${t.className.slice(t.className.lastIndexOf('.') + 1)}#${t.methodName}`;
const NO_COUNTS: Counts = { total: 0, passed: 0, failed: 0, flaky: 0, skipped: 0, notRun: 0 };
const countsOf = (run: TestRun): Counts => run.counts ?? { ...NO_COUNTS, total: run.total, notRun: run.total };
const duration = (ms: number | null | undefined) => (ms === null || ms === undefined ? '—' : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

function StateBadge({ state }: { state: RunState }) {
  const tone = state === 'passed' ? 'outcome-passed' : state === 'failed' || state === 'error' ? 'outcome-failed' : state;
  return <span class={`badge ${tone}`}>{STATE_WORDS[state] ?? state}</span>;
}

/** "12 of 30 done, 2 failed, 1 flaky" and a progress bar with the same figures for assistive technology. */
function Progress({ counts }: { counts: Counts }) {
  const done = counts.passed + counts.failed + counts.flaky + counts.skipped;
  const words = `${done} of ${counts.total} done, ${counts.failed} failed${counts.flaky ? `, ${counts.flaky} flaky` : ''}`;
  return (
    <div class="stack">
      <progress max={Math.max(1, counts.total)} value={done} aria-label={`Tests done: ${words}`} />
      <span>{words}</span>
    </div>
  );
}

/** The workspace's test runs, newest first, filtered by state. */
export function TestRunsPage() {
  const [state, setState] = useState('');
  const runs = useQuery({
    queryKey: ['test-runs', state],
    queryFn: () => api<{ content: TestRun[]; totalElements: number }>('/df/api/test-runs', { query: { size: 100, ...(state ? { state } : {}) } }),
    refetchInterval: 5_000,
  });
  return (
    <section>
      <h1>Test runs</h1>
      <p class="muted">
        Instrumentation suites sharded across the fleet. Start one from CI with <code>dfctl run --app app.apk --tests app-test.apk --devices android</code>.
      </p>
      <Select
        label="State"
        value={state}
        onChange={(e) => setState((e.target as HTMLSelectElement).value)}
        options={[{ value: '', label: 'Any' }, ...Object.entries(STATE_WORDS).map(([value, label]) => ({ value, label }))]}
      />
      <QueryTable
        query={runs}
        rows={(d) => d.content}
        rowKey={(r) => r.id}
        caption="Test runs"
        empty="No test run yet."
        columns={[
          { header: 'Run', cell: (r) => <Link href={`/test-runs/${r.id}`}>{r.name ?? r.id.slice(0, 8)}</Link> },
          { header: 'State', cell: (r) => <StateBadge state={r.state} /> },
          { header: 'Tests', cell: (r) => { const c = countsOf(r); return `${c.passed + c.flaky}/${c.total} passed${c.failed ? `, ${c.failed} failed` : ''}${c.flaky ? `, ${c.flaky} flaky` : ''}`; } },
          { header: 'Queued', cell: (r) => formatTime(r.queuedAt) },
        ]}
      />
    </section>
  );
}

/** Each device's shard on one time line: where it ran and for how long. */
function Timeline({ run, rows }: { run: TestRun; rows: TestRow[] }) {
  const shards = run.shards ?? [];
  const times = shards.flatMap((s) => [s.startedAt, s.endedAt]).filter((t): t is string => Boolean(t)).map((t) => Date.parse(t));
  if (times.length === 0) return <p class="muted">No device has started yet.</p>;
  const start = Math.min(...times);
  const end = Math.max(...times, Date.now() * (FINAL.includes(run.state) ? 0 : 1));
  const span = Math.max(1, end - start);
  const pct = (t: number) => `${(((t - start) / span) * 100).toFixed(2)}%`;
  return (
    <ol class="run-timeline" aria-label="What ran on each device">
      {shards.map((s) => {
        const attempts = rows.filter((r) => r.deviceId === s.deviceId && r.finishedAt);
        return (
          <li>
            <span class="run-device">
              <Link href={`/devices/${s.deviceId}`}>{s.deviceId.slice(0, 12)}</Link> <span class="badge">{s.state}</span>
            </span>
            <span class="run-lane">
              {attempts.map((a) => {
                const to = Date.parse(a.finishedAt!);
                const from = to - (a.durationMs ?? 0);
                return (
                  <span
                    class={`run-test ${a.outcome}`}
                    style={{ left: pct(from), width: `max(2px, ${(((to - from) / span) * 100).toFixed(2)}%)` }}
                    title={`${testName(a)} · attempt ${a.attempt} · ${OUTCOME_WORDS[a.outcome]} · ${duration(a.durationMs)} · ${formatClock(a.finishedAt)}`}
                  />
                );
              })}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/** A failure's screenshot, fetched with the caller's credentials. */
function Screenshot({ url, alt }: { url: string; alt: string }) {
  const image = useQuery({ queryKey: ['artifact', url], queryFn: async () => URL.createObjectURL(await (await api<Response>(url, { raw: true })).blob()), staleTime: Infinity });
  if (image.isError) return <ErrorNote error={image.error} />;
  return image.data ? <img src={image.data} alt={alt} class="test-screenshot" /> : <Loading />;
}

/** A test's evidence: its message and stack, its log lines and screenshot when the run kept them. */
function Evidence({ row }: { row: TestRow }) {
  return (
    <details>
      <summary>
        {testName(row)} on {row.deviceId?.slice(0, 12) ?? '—'} (attempt {row.attempt}){row.message ? `: ${row.message}` : ''}
      </summary>
      {row.stack ? <pre class="stack-trace">{row.stack}</pre> : null}
      {(row.logcat ?? []).length ? (
        <>
          <h4>Device log</h4>
          <pre class="stack-trace" aria-label={`Device log of ${testName(row)}, attempt ${row.attempt}`}>
            {(row.logcat ?? []).join('\n')}
          </pre>
        </>
      ) : null}
      {(row.artifacts ?? []).filter((a) => a.url).map((a) => (
        <figure>
          <Screenshot url={a.url!} alt={`The screen when ${testName(row)} failed (attempt ${row.attempt})`} />
          <figcaption>
            <button type="button" class="link" onClick={() => void download(a.url!, a.name)}>
              {a.name}
            </button>
          </figcaption>
        </figure>
      ))}
    </details>
  );
}

/** One run: its progress (live while it runs), the time line per device, failures first with their evidence, flaky tests marked. */
export function TestRunPage({ id }: { id: string }) {
  const qc = useQueryClient();
  const action = useAction();
  const live = (state: RunState | undefined) => (state && FINAL.includes(state) ? false : 2_000);
  const run = useQuery({ queryKey: ['test-run', id], queryFn: () => api<TestRun>(`/df/api/test-runs/${id}`), refetchInterval: (q) => live(q.state.data?.state) });
  const rows = useQuery({ queryKey: ['test-run', id, 'tests'], queryFn: () => api<TestRow[]>(`/df/api/test-runs/${id}/tests`), refetchInterval: () => live(run.data?.state) });
  if (run.isLoading) return <Loading />;
  if (run.error) return <ErrorNote error={run.error} />;
  const r = run.data!;
  const all = rows.data ?? [];
  // A test's outcome is its last attempt's: failures are the tests whose last attempt failed (shown with
  // that attempt's evidence); flaky ones passed on a retry.
  const last = new Map<string, TestRow>();
  for (const t of all) {
    const k = `${t.className}#${t.methodName}`;
    if ((last.get(k)?.attempt ?? 0) < t.attempt) last.set(k, t);
  }
  const failures = [...last.values()].filter((t) => BAD.has(t.outcome));
  const flaky = all.filter((t) => t.outcome === 'flaky');
  const ordered = [...all.filter((t) => BAD.has(t.outcome)), ...flaky, ...all.filter((t) => !BAD.has(t.outcome) && t.outcome !== 'flaky')];
  const refresh = () => qc.invalidateQueries({ queryKey: ['test-run', id] });
  return (
    <section class="stack">
      <p>
        <Link href="/test-runs">Test runs</Link>
      </p>
      <h1>
        {r.name ?? `Test run ${r.id.slice(0, 8)}`} <StateBadge state={r.state} />
      </h1>
      {r.reason ? <p>{r.reason}</p> : null}
      <Progress counts={countsOf(r)} />
      <p class="actions">
        <button type="button" disabled={action.busy} onClick={() => action.run(() => download(`/df/api/test-runs/${id}/junit`, `test-run-${id}.xml`))}>
          Download JUnit XML
        </button>{' '}
        <button type="button" disabled={action.busy} onClick={() => action.run(() => download(`/df/api/test-runs/${id}/report`, `test-run-${id}.html`))}>
          Download report
        </button>
        {r.testSessionId ? (
          <>
            {' '}
            <Link href={`/test-sessions/${r.testSessionId}`}>Test session</Link>
          </>
        ) : null}
      </p>
      <p class="actions">
        {FINAL.includes(r.state) && countsOf(r).failed > 0 ? (
          <button
            type="button"
            disabled={action.busy}
            onClick={() => action.run(async () => navigate(`/test-runs/${(await api<{ id: string }>(`/df/api/test-runs/${id}/rerun-failed`, { method: 'POST', body: {} })).id}`))}
          >
            Re-run failed
          </button>
        ) : null}
        {!FINAL.includes(r.state) ? (
          <ConfirmButton label="Cancel the run" question="Cancel this run? Its devices are given back." yes="Cancel the run" onYes={() => action.run(async () => { await api(`/df/api/test-runs/${id}/cancel`, { method: 'POST', body: {} }); await refresh(); })}>
            Cancel
          </ConfirmButton>
        ) : null}
      </p>
      {action.error ? <ErrorNote error={action.error} /> : null}
      <h2>Devices</h2>
      <Timeline run={r} rows={all} />
      <h2>Failures{failures.length ? ` (${failures.length})` : ''}</h2>
      {failures.length === 0 ? <p class="muted">No test failed{FINAL.includes(r.state) ? '' : ' so far'}.</p> : failures.map((f) => <Evidence row={f} />)}
      {flaky.length ? (
        <>
          <h2>Flaky ({flaky.length})</h2>
          <p class="muted">Failed, then passed on a retry: counted as passed, marked flaky.</p>
          {flaky.map((f) => <Evidence row={f} />)}
        </>
      ) : null}
      <h2>All tests</h2>
      {rows.error ? <ErrorNote error={rows.error} /> : null}
      <DataTable<TestRow>
        caption="Tests of the run, one row per attempt"
        rows={ordered}
        rowKey={(t) => `${t.className}#${t.methodName}#${t.deviceId}#${t.attempt}`}
        columns={[
          { header: 'Test', cell: (t) => <code>{testName(t)}</code> },
          { header: 'Outcome', cell: (t) => <span class={`badge outcome-${t.outcome === 'flaky' ? 'flaky' : BAD.has(t.outcome) ? 'failed' : t.outcome}`}>{OUTCOME_WORDS[t.outcome] ?? t.outcome}</span> },
          { header: 'Device', cell: (t) => t.deviceId?.slice(0, 12) ?? '—' },
          { header: 'Attempt', cell: (t) => t.attempt },
          { header: 'Duration', cell: (t) => duration(t.durationMs) },
        ]}
      />
    </section>
  );
}
