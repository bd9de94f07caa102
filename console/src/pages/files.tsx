import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import type { App, AppVersion, DeviceFileRecord as FileRecord, Page as PageOf } from '@qa-platform/client';
import { api, download } from '../api';
import { useSession } from '../session-context';
import { VersionTests } from './app-tests';
import { Confirm, DataTable, Empty, ErrorNote, formatTime, Loading, NotAllowed, Pager, QueryList } from '../ui';

export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(1)} ${units[i]}`;
}

/** Files larger than this go through the multipart flow (docs/console.md, "Files"). */
export const MULTIPART_THRESHOLD = 64 * 1024 * 1024;

/** An upload's progress: bytes stored so far, of the file's size, and a note while a part is tried again. */
export type Progress = (sent: number, total: number, note?: string) => void;

async function storageError(put: Response): Promise<Error> {
  let message = `Storage refused the upload (${put.status})`;
  try {
    const b = (await put.json()) as { message?: string };
    if (b.message) message = b.message;
  } catch {
    /* not JSON */
  }
  return new Error(message);
}

/** Uploads one file: the presigned flow for a small one, multipart for a big one. */
function upload(file: File, progress: Progress): Promise<void> {
  return file.size > MULTIPART_THRESHOLD ? uploadMultipart(file, progress) : uploadSingle(file, progress);
}

/** How many times one part is tried before the upload gives up, and the pause before each retry. */
const PART_ATTEMPTS = 3;
const retryPause = (attempt: number) => new Promise((r) => setTimeout(r, 500 * 2 ** (attempt - 1)));
/** Storage answers worth trying again: it was busy or failing, not refusing this request. */
const retriable = (status: number) => status >= 500 || status === 408 || status === 429;

/**
 * One part: its signed URL (asked again on each attempt, so an expired one is replaced), the PUT of
 * exactly that slice, its ETag. A dropped connection or a busy/failing storage answer is tried again,
 * up to PART_ATTEMPTS times; any other refusal ends the upload at once.
 */
async function putPart(fileId: string, n: number, slice: Blob, retrying: (attempt: number, why: string) => void): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const signed = await api<{ url: string; method?: string }>(`/df/api/files/multipart/${fileId}/part/${n}`);
    let why: string;
    try {
      const put = await fetch(signed.url, { method: signed.method ?? 'PUT', body: slice });
      if (put.ok) {
        const etag = put.headers.get('etag');
        if (!etag) throw new Error(`Storage answered part ${n} without an ETag`);
        return etag;
      }
      if (!retriable(put.status) || attempt >= PART_ATTEMPTS) throw await storageError(put);
      why = `storage answered ${put.status}`;
    } catch (err) {
      // fetch rejects with a TypeError only when the connection failed; everything else is final.
      if (!(err instanceof TypeError)) throw err;
      if (attempt >= PART_ATTEMPTS) throw new Error(`Part ${n} could not be sent after ${attempt} attempts (${err.message})`);
      why = 'the connection failed';
    }
    retrying(attempt + 1, why);
    await retryPause(attempt);
  }
}

/**
 * Multipart: initiate, then each part in sequence (retried on its own when the network or storage
 * fails it), then complete with every part's ETag. When a part fails for good the upload is aborted,
 * so no pending file is left behind.
 */
async function uploadMultipart(file: File, progress: Progress): Promise<void> {
  const contentType = file.type || 'application/octet-stream';
  const started = await api<{ fileId: string; partSize: number; partCount: number }>('/df/api/files/multipart/initiate', {
    method: 'POST',
    body: { name: file.name, size: file.size, contentType },
  });
  const parts: { partNumber: number; etag: string }[] = [];
  try {
    progress(0, file.size);
    for (let n = 1; n <= started.partCount; n++) {
      const done = (n - 1) * started.partSize;
      const slice = file.slice(done, Math.min(n * started.partSize, file.size));
      const etag = await putPart(started.fileId, n, slice, (attempt, why) =>
        progress(done, file.size, `Part ${n} of ${started.partCount} failed (${why}); trying it again (attempt ${attempt} of ${PART_ATTEMPTS}).`),
      );
      parts.push({ partNumber: n, etag });
      progress(Math.min(n * started.partSize, file.size), file.size);
    }
    await api(`/df/api/files/multipart/${started.fileId}/complete`, { method: 'POST', body: { parts } });
  } catch (err) {
    await api(`/df/api/files/multipart/${started.fileId}`, { method: 'DELETE' }).catch(() => undefined);
    throw err;
  }
}

/** The presigned flow: sign, PUT the bytes to storage, confirm. */
async function uploadSingle(file: File, progress: Progress): Promise<void> {
  const contentType = file.type || 'application/octet-stream';
  const signed = await api<{ fileId: string; url: string; headers?: Record<string, string> }>('/df/api/files/presigned-upload', {
    method: 'POST',
    body: { name: file.name, size: file.size, contentType },
  });
  progress(0, file.size);
  const put = await fetch(signed.url, { method: 'PUT', headers: signed.headers ?? { 'content-type': contentType }, body: file });
  if (!put.ok) throw await storageError(put);
  progress(file.size, file.size);
  await api(`/df/api/files/${signed.fileId}/confirm`, { method: 'POST' });
}

function Versions({ appId, platform }: { appId: string; platform: App['platform'] }) {
  const versions = useQuery({ queryKey: ['files', 'apps', appId, 'versions'], queryFn: () => api<AppVersion[] | PageOf<AppVersion>>(`/df/api/files/apps/${appId}/versions`) });
  if (versions.isLoading) return <Loading />;
  if (versions.error) return <ErrorNote error={versions.error} />;
  const rows = Array.isArray(versions.data) ? versions.data : (versions.data?.content ?? []);
  if (rows.length === 0) return <Empty>No version.</Empty>;
  return (
    <ul>
      {rows.map((v) => (
        <li>
          {v.versionName ?? '—'} ({v.versionCode ?? '—'}) · {formatBytes(v.size)} · {formatTime(v.createdAt)}
          {platform === 'android' ? <VersionTests versionId={v.id} label={`version ${v.versionName ?? v.versionCode}`} /> : null}
        </li>
      ))}
    </ul>
  );
}

/** Files and the app catalog: upload, list, delete. */
export function FilesPage() {
  const { can } = useSession();
  const qc = useQueryClient();
  const [page, setPage] = useState(0);
  const readable = can('df:session:read');
  const manage = can('df:file:manage');
  const files = useQuery({
    queryKey: ['files', 'list', page],
    queryFn: () => api<PageOf<FileRecord>>('/df/api/files', { query: { page, size: 20 } }),
    enabled: readable,
  });
  const apps = useQuery({ queryKey: ['files', 'apps'], queryFn: () => api<PageOf<App>>('/df/api/files/apps', { query: { size: 100 } }), enabled: readable });
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: ['files'] });

  if (!readable) return <NotAllowed title="Files and apps">Seeing files needs the permission key df:session:read in this workspace.</NotAllowed>;

  return (
    <section class="stack">
      <h1>Files and apps</h1>
      <ErrorNote error={error} />
      {done ? (
        <p class="ok" role="status">
          {done}
        </p>
      ) : null}
      <div class="split">
        {manage ? <UploadCard setError={setError} setDone={setDone} refresh={refresh} /> : null}
        <div class="stack">
          <h2>Files</h2>
          <QueryList query={files} isEmpty={(d) => !d.content.length} empty="No file yet.">
            {(d) => (
              <>
                <FilesTable rows={d.content} manage={manage} setError={setError} refresh={refresh} />
                <Pager page={page} totalPages={d.totalPages} total={d.totalElements} onPage={setPage} />
              </>
            )}
          </QueryList>
          <h2>Apps</h2>
          <QueryList query={apps} isEmpty={(d) => !d.content.length} empty="No app in the catalog yet: upload an APK or IPA.">
            {(d) => <AppList apps={d.content} />}
          </QueryList>
        </div>
      </div>
    </section>
  );
}

/** Uploads one file, with its progress; the page says when it is done or why it failed. */
function UploadCard(props: { setError: (err: unknown) => void; setDone: (text: string | null) => void; refresh: () => Promise<unknown> }) {
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<{ sent: number; total: number; note?: string } | null>(null);
  return (
    <div class="card">
      <h2>Upload</h2>
      <form
        class="stack"
        aria-label="Upload a file"
        onSubmit={async (e) => {
          e.preventDefault();
          const form = e.currentTarget as HTMLFormElement;
          const input = form.elements.namedItem('file') as HTMLInputElement;
          const chosen = input.files?.[0];
          if (!chosen) return;
          setBusy(true);
          props.setError(null);
          props.setDone(null);
          try {
            await upload(chosen, (n, total, note) => setSent({ sent: n, total, note }));
            props.setDone(`${chosen.name} uploaded.`);
            form.reset();
          } catch (err) {
            props.setError(err);
          } finally {
            setBusy(false);
            setSent(null);
            await props.refresh();
          }
        }}
      >
        <label class="field">
          <span>File (an APK or IPA joins the app catalog)</span>
          <input type="file" name="file" required />
          <small class="muted">Over 64 MiB it goes up in parts.</small>
        </label>
        {sent ? (
          <div>
            <progress id="upload-progress" aria-label="Upload progress" max={sent.total} value={sent.sent} />
            <span class="small muted">
              {' '}
              {formatBytes(sent.sent)} of {formatBytes(sent.total)}
            </span>
            {sent.note ? (
              <p id="upload-note" class="small warn">
                {sent.note}
              </p>
            ) : null}
          </div>
        ) : null}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Uploading…' : 'Upload'}
        </button>
      </form>
    </div>
  );
}

function FilesTable(props: { rows: FileRecord[]; manage: boolean; setError: (err: unknown) => void; refresh: () => Promise<unknown> }) {
  const { setError } = props;
  const [deleting, setDeleting] = useState<string | null>(null);
  /** Runs `fn`, showing its error on the page. */
  const attempt = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <DataTable
      caption="Files"
      rows={props.rows}
      columns={[
        { header: 'Name', cell: (f) => f.name },
        { header: 'Size', cell: (f) => formatBytes(f.size), class: 'nowrap' },
        { header: 'Kind', cell: (f) => f.kind },
        { header: 'Status', cell: (f) => <span class={`badge ${f.status}`}>{f.status}</span> },
        { header: 'Uploaded', cell: (f) => formatTime(f.createdAt), class: 'nowrap' },
        {
          header: 'Actions',
          hiddenHeader: true,
          class: 'row',
          cell: (f) =>
            deleting === f.id ? (
              <Confirm
                label={`Confirm deleting ${f.name}`}
                yes="Yes, delete"
                onYes={async () => {
                  await attempt(() => api(`/df/api/files/${f.id}`, { method: 'DELETE' }));
                  setDeleting(null);
                  await props.refresh();
                }}
                onNo={() => setDeleting(null)}
              />
            ) : (
              <>
                {f.status === 'ready' ? (
                  <button
                    type="button"
                    aria-label={`Download ${f.name}`}
                    // The API answers with a short-lived signed address of the bytes, offered under the file's name.
                    onClick={() => attempt(() => download(`/df/api/files/${f.id}/download`, f.name))}
                  >
                    Download
                  </button>
                ) : null}
                {props.manage ? (
                  <button type="button" class="danger" aria-label={`Delete ${f.name}`} onClick={() => setDeleting(f.id)}>
                    Delete
                  </button>
                ) : null}
              </>
            ),
        },
      ]}
    />
  );
}

function AppList({ apps }: { apps: App[] }) {
  const [open, setOpen] = useState<string | null>(null);
  return (
    <ul class="stack">
      {apps.map((a) => (
        <li class="card">
          <strong>{a.name}</strong> <span class="muted">{a.identifier}</span> · {a.platform} · {a.versionCount} version{a.versionCount === 1 ? '' : 's'}{' '}
          <button type="button" aria-expanded={open === a.id} onClick={() => setOpen(open === a.id ? null : a.id)}>
            {open === a.id ? 'Hide versions' : 'Versions'}
          </button>
          {open === a.id ? <Versions appId={a.id} platform={a.platform} /> : null}
        </li>
      ))}
    </ul>
  );
}
