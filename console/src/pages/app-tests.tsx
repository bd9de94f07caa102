import { useQuery } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import type { TestApk } from '@qa-platform/client';
import { api, ApiError } from '../api';
import { DataTable, ErrorNote, Loading } from '../ui';

type TestMethod = TestApk['tests'][number];

/** Short Java names for the annotations column: `androidx.test.filters.LargeTest` → `@LargeTest`. */
const shortName = (name: string) => `@${name.slice(name.lastIndexOf('.') + 1)}`;

/** A version's tests behind a button: runner, target package, and every test with its annotations. */
export function VersionTests({ versionId, label }: { versionId: string; label: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      {' '}
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? `Hide tests of ${label}` : `Tests of ${label}`}
      </button>
      {open ? <TestList versionId={versionId} label={label} /> : null}
    </>
  );
}

function TestList({ versionId, label }: { versionId: string; label: string }) {
  const tests = useQuery({ queryKey: ['files', 'app-versions', versionId, 'tests'], queryFn: () => api<TestApk>(`/df/api/files/app-versions/${versionId}/tests`), retry: false });
  if (tests.isLoading) return <Loading label="Reading the tests…" />;
  if (tests.error instanceof ApiError && tests.error.code === 'NOT_A_TEST_APK') return <p class="muted">This build is not a test APK: it declares no instrumentation or has no tests.</p>;
  if (tests.error) return <ErrorNote error={tests.error} />;
  const listing = tests.data!;
  const ignored = listing.tests.filter((t) => t.ignored).length;
  return (
    <div class="stack">
      <dl class="facts">
        <dt>Runner</dt>
        <dd>
          <code>{listing.runner}</code>
        </dd>
        <dt>Target package</dt>
        <dd>
          <code>{listing.targetPackage}</code>
        </dd>
        <dt>Tests</dt>
        <dd>
          {listing.tests.length}
          {ignored ? ` (${ignored} ignored)` : ''}
        </dd>
      </dl>
      <DataTable<TestMethod>
        caption={`Tests of ${label}`}
        rows={listing.tests}
        rowKey={(t) => `${t.className}#${t.methodName}`}
        columns={[
          { header: 'Test', cell: (t) => <code>{`${t.className}#${t.methodName}`}</code> },
          { header: 'Annotations', cell: (t) => t.annotations.filter((a) => a !== 'org.junit.Test').map(shortName).join(' ') },
          { header: 'Ignored', cell: (t) => (t.ignored ? <span class="badge ignored">Ignored</span> : null) },
        ]}
      />
    </div>
  );
}
