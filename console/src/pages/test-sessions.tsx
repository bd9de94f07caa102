import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { Link } from '../router';
import { DataTable, ErrorNote, formatTime, Loading, QueryTable, useAction, withFields } from '../ui';

interface TestResult {
  testCaseId: string;
  status: string;
  notes: string | null;
  durationMs: number | null;
  /** The test's name as an imported report gave it. */
  title: string | null;
  /** The device session that ran the test, when its report named one. */
  deviceSessionId: string | null;
  /** The device session's video, when the reader may see it: a signed link valid for an hour. */
  attachments: ResultAttachment[];
}

interface ResultAttachment {
  kind: 'device-session-video';
  name: string;
  contentType: string;
  size: number;
  durationMs: number;
  url: string;
}

interface TestSession {
  id: string;
  projectId: string;
  name: string;
  status: string;
  testCases: string[];
  createdAt: string;
  completedAt: string | null;
  results: TestResult[];
}

interface TestCase {
  id: string;
  title: string;
}

/** `POST /v1/test-sessions/{id}/results/junit`'s answer. */
interface JunitImport {
  matched: number;
  created: number;
  skipped: number;
  results: { classname: string; name: string; testCaseId: string; testCase: 'matched' | 'created'; status: string; durationMs: number | null }[];
}

const STATUS_WORDS: Record<string, string> = { planned: 'Planned', in_progress: 'In progress', completed: 'Completed' };
/** The device session's page with its replay open, as the test runners' printed links open it. */
function DeviceSessionLink({ result, test }: { result: TestResult | undefined; test: string }) {
  if (!result?.deviceSessionId) return <>—</>;
  return (
    <Link href={`/sessions/${result.deviceSessionId}?pane=replay`} aria-label={`Replay of ${test}`}>
      Replay
    </Link>
  );
}

/** The result's video (the device session's recording), opened by its signed link. */
function VideoLinks({ result, test }: { result: TestResult | undefined; test: string }) {
  const videos = result?.attachments ?? [];
  if (videos.length === 0) return <>—</>;
  return (
    <>
      {videos.map((v) => (
        <a key={v.url} href={v.url} type={v.contentType} target="_blank" rel="noopener noreferrer">
          Video · {duration(v.durationMs)} · {megabytes(v.size)}
          <span class="sr-only"> of {test}</span>
        </a>
      ))}
    </>
  );
}

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
const duration = (ms: number | null) => (ms === null ? '—' : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

/** The workspace's test sessions, newest first, each linking to its page. */
export function TestSessionsPage() {
  const sessions = useQuery({ queryKey: ['v1-test-sessions'], queryFn: () => api<{ data: TestSession[] }>('/v1/test-sessions', { query: { limit: 100 } }) });
  return (
    <section>
      <h1>Test sessions</h1>
      <QueryTable
        query={sessions} rows={(d) => d.data} rowKey={(s) => s.id} caption="Test sessions"
        empty="No test session yet: start one through /v1, or import a JUnit report into a project (POST /v1/projects/{id}/junit-imports)."
        columns={[
          { header: 'Name', cell: (s) => <Link href={`/test-sessions/${s.id}`}>{s.name}</Link> },
          { header: 'Status', cell: (s) => STATUS_WORDS[s.status] ?? s.status },
          { header: 'Test cases', cell: (s) => s.testCases.length },
          { header: 'Started', cell: (s) => formatTime(s.createdAt) },
        ]}
      />
    </section>
  );
}

/** The upload of a JUnit XML report into the session, and what the import did. */
function JunitImportForm({ sessionId, onImported }: { sessionId: string; onImported: () => Promise<unknown> }) {
  const action = useAction();
  const [answer, setAnswer] = useState<JunitImport | null>(null);
  return (
    <section aria-labelledby="junit-import">
      <h2 id="junit-import">Import JUnit results</h2>
      <p class="muted">Each testcase is recorded on the project's test case titled "classname › name"; the missing ones are created.</p>
      <form
        class="stack"
        aria-label="Import JUnit results"
        onSubmit={withFields((data) =>
          action.run(async () => {
            setAnswer(null);
            const form = new FormData();
            form.append('file', data.get('file') as File);
            setAnswer((await api<{ data: JunitImport }>(`/v1/test-sessions/${sessionId}/results/junit`, { method: 'POST', body: form })).data);
            await onImported();
          }),
        )}
      >
        <label class="field">
          <span>JUnit XML report</span>
          <input type="file" name="file" accept=".xml,application/xml,text/xml" required />
        </label>
        <ErrorNote error={action.error} />
        <button type="submit" class="primary" disabled={action.busy}>
          {action.busy ? 'Importing…' : 'Import'}
        </button>
      </form>
      <div role="status" aria-live="polite">
        {answer ? (
          <p>
            Imported {answer.results.length} results: {answer.matched} matched, {answer.created} created, {answer.skipped} skipped.
          </p>
        ) : null}
      </div>
      {answer ? (
        <DataTable
          caption="Imported testcases"
          rows={answer.results}
          columns={[
            { header: 'Testcase', cell: (r) => `${r.classname} › ${r.name}` },
            { header: 'Test case', cell: (r) => (r.testCase === 'created' ? 'Created' : 'Matched') },
            { header: 'Outcome', cell: (r) => r.status },
            { header: 'Duration', cell: (r) => duration(r.durationMs) },
          ]}
        />
      ) : null}
    </section>
  );
}

/** One test session: its state, the current result of each case, and the JUnit import. */
export function TestSessionPage({ id }: { id: string }) {
  const qc = useQueryClient();
  const session = useQuery({ queryKey: ['v1-test-session', id], queryFn: () => api<{ data: TestSession }>(`/v1/test-sessions/${id}`) });
  const projectId = session.data?.data.projectId;
  const cases = useQuery({
    queryKey: ['v1-test-cases', projectId],
    queryFn: () => api<{ data: TestCase[] }>('/v1/test-cases', { query: { projectId, limit: 100 } }),
    enabled: !!projectId,
  });
  if (session.isLoading) return <Loading />;
  if (session.error || !session.data) return <ErrorNote error={session.error} />;
  const s = session.data.data;
  const titles = new Map((cases.data?.data ?? []).map((c) => [c.id, c.title]));
  const results = new Map(s.results.map((r) => [r.testCaseId, r]));
  // The case list may not be loaded (or past its first 100): an imported result names its test itself.
  const title = (c: string) => titles.get(c) ?? results.get(c)?.title ?? c;
  const reload = () => Promise.all([qc.invalidateQueries({ queryKey: ['v1-test-session', id] }), qc.invalidateQueries({ queryKey: ['v1-test-cases'] }), qc.invalidateQueries({ queryKey: ['v1-test-sessions'] })]);
  return (
    <section>
      <p>
        <Link href="/test-sessions">All test sessions</Link>
      </p>
      <h1>{s.name}</h1>
      <p>
        {STATUS_WORDS[s.status] ?? s.status} · {s.testCases.length} test cases · started {formatTime(s.createdAt)}
      </p>
      {s.testCases.length === 0 ? (
        <p class="empty">No test case in this session yet.</p>
      ) : (
        <DataTable
          caption="Results"
          rows={s.testCases}
          rowKey={(c) => c}
          columns={[
            { header: 'Test case', cell: (c) => title(c) },
            { header: 'Result', cell: (c) => results.get(c)?.status ?? 'untested' },
            { header: 'Duration', cell: (c) => duration(results.get(c)?.durationMs ?? null) },
            { header: 'Notes', cell: (c) => results.get(c)?.notes?.split('\n')[0] ?? '' },
            { header: 'Device session', cell: (c) => <DeviceSessionLink result={results.get(c)} test={title(c)} /> },
            { header: 'Video', cell: (c) => <VideoLinks result={results.get(c)} test={title(c)} /> },
          ]}
        />
      )}
      {s.status === 'completed' ? <p class="muted">This session is completed: no more results can be recorded.</p> : <JunitImportForm sessionId={id} onImported={reload} />}
    </section>
  );
}
