import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import type { App as CatalogApp, AppVersion as CatalogVersion, DeviceApp, DeviceFile as Entry, Operation } from '@qa-platform/client';
import { api, ApiError, download } from '../api';
import { ActionForm, Confirm, DataTable, Empty, ErrorNote, formatTime, Loading, useAction, withFields } from '../ui';
import { formatBytes } from './files';

const FINAL = new Set(['succeeded', 'failed', 'cancelled']);

/** The device answered that it has no such thing (a browser, a simulated device). */
const unsupported = (err: unknown) => err instanceof ApiError && err.code === 'DEVICE_UNSUPPORTED';

/** Where the Files pane opens on each platform. */
export const filesHome = (platform: string) => (platform === 'ios' ? '/' : '/sdcard');

const joinPath = (folder: string, name: string) => `${folder.replace(/\/+$/, '')}/${name}`;
const parentOf = (path: string) => path.replace(/\/[^/]+\/?$/, '') || '/';

export function AppsPane({ id, platform }: { id: string; platform: string }) {
  const qc = useQueryClient();
  const [system, setSystem] = useState(false);
  const [installed, setInstalled] = useState<string[] | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const action = useAction();
  const apps = useQuery({
    queryKey: ['session-apps', id, system],
    queryFn: async () => (await api<{ apps: DeviceApp[] }>(`/df/api/sessions/${id}/apps`, { query: { thirdPartyOnly: !system } })).apps,
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ['session-apps', id] });
  if (apps.error && unsupported(apps.error)) return <Empty>This device has no apps to list or install.</Empty>;
  const kind = platform === 'ios' ? 'IPA' : 'APK';
  return (
    <div class="stack">
      <ActionForm
          label="Install an app"
          submit="Install"
          onSubmit={async (d) => {
            setInstalled(null);
            const file = d.get('file');
            if (!(file instanceof File) || file.size === 0) throw new Error(`Choose an ${kind} file first.`);
            const form = new FormData();
            form.append('file', file, file.name);
            const r = await api<{ packageNames: string[] }>(`/df/api/sessions/${id}/apps/install`, { method: 'POST', body: form });
            setInstalled(r.packageNames);
            await refresh();
          }}
        >
          <label class="field">
            <span>{kind} file (it is uninstalled when the session ends)</span>
            <input type="file" name="file" accept={platform === 'ios' ? '.ipa' : '.apk,application/vnd.android.package-archive'} required />
          </label>
      </ActionForm>
      <CatalogInstall id={id} platform={platform} onInstalled={async (names) => {
        setInstalled(names);
        await refresh();
      }} />
      {installed ? (
        <p class="ok" role="status">
          Installed {installed.join(', ')}.
        </p>
      ) : null}
      <label class="check small">
        <input type="checkbox" checked={system} onChange={(e) => setSystem((e.currentTarget as HTMLInputElement).checked)} /> <span>Show system apps</span>
      </label>
      <ErrorNote error={action.error} />
      {apps.isLoading ? <Loading label="Asking the device for its apps…" /> : null}
      {apps.error ? <ErrorNote error={apps.error} /> : null}
      {apps.data && apps.data.length === 0 ? <Empty>{system ? 'No apps on the device.' : 'No app installed besides the system’s.'}</Empty> : null}
      {apps.data && apps.data.length > 0 ? (
        <DataTable
          caption="Apps on the device"
          rows={apps.data}
          columns={[
            {
              header: 'App',
              cell: (a) => (
                <>
                  <code class="wrap">{a.packageName}</code>
                  {a.system ? <span class="muted small"> · system</span> : null}
                </>
              ),
            },
            {
              header: 'Actions',
              hiddenHeader: true,
              cell: (a) =>
                !a.system ? (
                  removing === a.packageName ? (
                    <Confirm
                      label={`Confirm uninstalling ${a.packageName}`}
                      question="Uninstall it from the device?"
                      yes="Yes, uninstall"
                      onYes={() =>
                        action.run(async () => {
                          await api(`/df/api/sessions/${id}/apps/uninstall`, { method: 'POST', body: { packageName: a.packageName } });
                          setRemoving(null);
                          await refresh();
                        })
                      }
                      onNo={() => setRemoving(null)}
                    />
                  ) : (
                    <button type="button" aria-label={`Uninstall ${a.packageName}`} onClick={() => setRemoving(a.packageName)}>
                      Uninstall
                    </button>
                  )
                ) : null,
            },
          ]}
        />
      ) : null}
    </div>
  );
}

export function FilesPane({ id, platform }: { id: string; platform: string }) {
  const qc = useQueryClient();
  const [path, setPath] = useState(filesHome(platform));
  const [deleting, setDeleting] = useState<string | null>(null);
  const action = useAction();
  const list = useQuery({
    queryKey: ['session-files', id, path],
    queryFn: () => api<{ path: string; entries: Entry[] }>(`/df/api/sessions/${id}/files`, { query: { path } }),
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ['session-files', id, path] });
  if (list.error && unsupported(list.error)) return <Empty>This device has no files to browse.</Empty>;
  const entries = [...(list.data?.entries ?? [])].sort((a, b) => (a.type === 'directory' ? 0 : 1) - (b.type === 'directory' ? 0 : 1) || a.name.localeCompare(b.name));
  return (
    <div class="stack">
      <form
        class="row"
        aria-label="Folder on the device"
        onSubmit={withFields((d) => {
          const value = String(d.get('path') ?? '').trim();
          if (value.startsWith('/')) setPath(value);
        })}
      >
        <label class="field grow">
          <span>Folder</span>
          <input name="path" key={path} defaultValue={path} pattern="/.*" title="An absolute path, such as /sdcard/Download" />
        </label>
        <button type="submit">Open</button>
        <button type="button" disabled={path === '/'} onClick={() => setPath(parentOf(path))}>
          Up
        </button>
      </form>
      <div class="row">
          <ActionForm
            class="row"
            label="Upload into this folder"
            submit="Upload"
            onSubmit={async (d) => {
              const file = d.get('file');
              if (!(file instanceof File) || file.size === 0) throw new Error('Choose a file first.');
              const form = new FormData();
              form.append('path', joinPath(path, file.name));
              form.append('file', file, file.name);
              await api(`/df/api/sessions/${id}/files/push`, { method: 'POST', body: form });
              await refresh();
            }}
          >
            <label class="field">
              <span>File to upload</span>
              <input type="file" name="file" required />
            </label>
          </ActionForm>
          <ActionForm
            class="row"
            label="New folder"
            submit="Create folder"
            onSubmit={async (d) => {
              const name = String(d.get('name') ?? '').trim();
              await api(`/df/api/sessions/${id}/folders`, { method: 'POST', body: { path: joinPath(path, name) } });
              await refresh();
            }}
          >
            <label class="field">
              <span>Folder name</span>
              <input name="name" required pattern="[^/]+" title="A name without /" />
            </label>
          </ActionForm>
      </div>
      <ErrorNote error={action.error} />
      {list.isLoading ? <Loading label="Reading the folder…" /> : null}
      {list.error ? <ErrorNote error={list.error} /> : null}
      {list.data && entries.length === 0 ? <Empty>This folder is empty.</Empty> : null}
      {entries.length > 0 ? (
        <DataTable
          caption={`Contents of ${path}`}
          rows={entries}
          columns={[
            {
              header: 'Name',
              cell: (f) => (
                <>
                  {f.type === 'directory' ? (
                    <button type="button" class="folder" aria-label={`Open the folder ${f.name}`} onClick={() => setPath(joinPath(path, f.name))}>
                      {f.name}/
                    </button>
                  ) : (
                    <span class="wrap">{f.name}</span>
                  )}
                  <div class="muted small">
                    {f.type === 'file' ? `${formatBytes(f.size)} · ` : ''}
                    {formatTime(f.modifiedAt)}
                  </div>
                </>
              ),
            },
            {
              header: 'Actions',
              hiddenHeader: true,
              cell: (f) => {
                const full = joinPath(path, f.name);
                if (deleting === full) {
                  return (
                    <Confirm
                      label={`Confirm deleting ${f.name}`}
                      question={f.type === 'directory' ? 'Delete the folder and everything in it?' : 'Delete the file from the device?'}
                      yes="Yes, delete"
                      onYes={() =>
                        action.run(async () => {
                          await api(`/df/api/sessions/${id}/files`, { method: 'DELETE', query: { path: full } });
                          setDeleting(null);
                          await refresh();
                        })
                      }
                      onNo={() => setDeleting(null)}
                    />
                  );
                }
                return (
                  <span class="row tight">
                    {f.type === 'file' ? (
                      <button type="button" aria-label={`Download ${f.name}`} onClick={() => void action.run(() => download(`/df/api/sessions/${id}/files/pull`, f.name, undefined, { method: 'POST', body: { path: full } }))}>
                        Download
                      </button>
                    ) : null}
                    <button type="button" aria-label={`Delete ${f.name}`} onClick={() => setDeleting(full)}>
                      Delete
                    </button>
                  </span>
                );
              },
            },
          ]}
        />
      ) : null}
    </div>
  );
}

/**
 * Installs a version of the workspace's app catalog: `POST .../apps/install {versionId}` answers an
 * operation, followed here until it ends (its progress shown). Offered when the catalog holds apps
 * of the device's platform.
 */
function CatalogInstall({ id, platform, onInstalled }: { id: string; platform: string; onInstalled: (packageNames: string[]) => Promise<void> }) {
  const [appId, setAppId] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const apps = useQuery({
    queryKey: ['files', 'apps', 'platform', platform],
    queryFn: async () => (await api<{ content: CatalogApp[] }>('/df/api/files/apps', { query: { platform, size: 100 } })).content,
  });
  const versions = useQuery({
    queryKey: ['files', 'apps', appId, 'versions'],
    queryFn: async () => {
      const v = await api<CatalogVersion[] | { content: CatalogVersion[] }>(`/df/api/files/apps/${appId}/versions`);
      return Array.isArray(v) ? v : v.content;
    },
    enabled: appId !== '',
  });
  if (!apps.data || apps.data.length === 0) return null;
  return (
    <ActionForm
      label="Install from the app catalog"
      submit={progress === null ? 'Install this version' : `Installing… ${progress}%`}
      onSubmit={async (d) => {
        const versionId = String(d.get('versionId') ?? '');
        if (!versionId) throw new Error('Choose an app and a version first.');
        setProgress(0);
        try {
          const { operationId } = await api<{ operationId: string }>(`/df/api/sessions/${id}/apps/install`, { method: 'POST', body: { versionId } });
          let op = await api<Operation>(`/df/api/operations/${operationId}`);
          while (!FINAL.has(op.state)) {
            setProgress(op.progress);
            await new Promise((resolve) => setTimeout(resolve, 1_000));
            op = await api<Operation>(`/df/api/operations/${operationId}`);
          }
          if (op.state !== 'succeeded') throw new Error(op.error?.message ?? `The install was ${op.state}.`);
          // An operation's result is its own kind's: an install's names the packages it put on the device.
          const installed = op.result?.packageNames;
          await onInstalled(Array.isArray(installed) ? installed.filter((name): name is string => typeof name === 'string') : []);
        } finally {
          setProgress(null);
        }
      }}
    >
      <div class="row">
        <label class="field">
          <span>App of the catalog</span>
          <select name="appId" value={appId} onChange={(e) => setAppId((e.currentTarget as HTMLSelectElement).value)} required>
            <option value="">Choose…</option>
            {apps.data.map((a) => (
              <option value={a.id}>
                {a.name} ({a.identifier})
              </option>
            ))}
          </select>
        </label>
        <label class="field">
          <span>Version</span>
          <select name="versionId" required disabled={!versions.data}>
            {(versions.data ?? []).map((v) => (
              <option value={v.id}>
                {v.versionName ?? '—'} ({v.versionCode ?? '—'}) · {formatTime(v.createdAt)}
              </option>
            ))}
          </select>
        </label>
      </div>
    </ActionForm>
  );
}
