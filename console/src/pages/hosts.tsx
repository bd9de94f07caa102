import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { useSession } from '../session-context';
import { ActionForm, Confirm, DataTable, Empty, ErrorNote, Field, formatTime, Loading } from '../ui';

interface Device {
  id: string;
  name: string;
  nodeName: string;
}

interface Host {
  id: string;
  name: string;
  workspaceIds: number[] | null;
  /** `pending`: enrolled, never connected yet. */
  status: 'pending' | 'active' | 'revoked';
  createdAt: string;
  devices: { total: number; online: number };
}

/**
 * Enrolled hosts: enrol (the token shown once), rename, re-scope to workspaces, a new token (shown
 * once), revoke, move a device of the company to a host. Needs `df:host:manage`.
 */
export function HostsPage() {
  const { can, workspaces } = useSession();
  const qc = useQueryClient();
  const allowed = can('df:host:manage');
  const hosts = useQuery({
    queryKey: ['hosts'],
    queryFn: () => api<{ content: Host[] }>('/df/api/hosts', { query: { size: 100 } }),
    enabled: allowed,
  });
  const [enrolled, setEnrolled] = useState<{ name: string; token: string; rotated?: boolean } | null>(null);
  const [scoping, setScoping] = useState<string | null>(null);
  const [rotating, setRotating] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const [moving, setMoving] = useState<string | null>(null);
  const [moved, setMoved] = useState<string | null>(null);
  const devices = useQuery({
    queryKey: ['hosts', 'devices'],
    queryFn: () => api<{ content: Device[] }>('/df/api/devices', { query: { size: 100 } }),
    enabled: allowed && moving !== null,
  });
  const [error, setError] = useState<unknown>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: ['hosts'] });
  const run = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
      await refresh();
    } catch (err) {
      setError(err);
    }
  };
  if (!allowed)
    return (
      <section>
        <h1>Hosts</h1>
        <p>Managing hosts needs the permission key df:host:manage in this workspace.</p>
      </section>
    );
  const wsName = (id: number) => workspaces.find((w) => w.id === id)?.name ?? `#${id}`;

  return (
    <section class="stack">
      <h1>Hosts</h1>
      <ErrorNote error={error} />
      {moved ? <p role="status">{moved}</p> : null}
      {enrolled ? (
        <div class="card stack" role="region" aria-label="New host token">
          <h2>{enrolled.rotated ? `A new token for “${enrolled.name}”` : `Host “${enrolled.name}” enrolled`}</h2>
          <p>Copy its token now: it is shown only this once.{enrolled.rotated ? ' The old token is refused at the host’s next hello.' : ''}</p>
          <label class="field">
            <span>Token</span>
            <input readOnly value={enrolled.token} />
          </label>
          <div class="row">
            <button
              type="button"
              onClick={async () => {
                try {
                  await navigator.clipboard.writeText(enrolled.token);
                  setCopied(true);
                } catch (err) {
                  setError(err);
                }
              }}
            >
              Copy token
            </button>
            {copied ? <span role="status">Copied</span> : null}
          </div>
          <p>Start the agent on the host with (NATS_URL: the address of the platform's NATS):</p>
          <pre>
            <code>{`AGENT_HOST_TOKEN=${enrolled.token} NATS_URL=nats://<nats-host>:4222 npm run agent`}</code>
          </pre>
          <div>
            <button type="button" onClick={() => setEnrolled(null)}>
              Done
            </button>
          </div>
        </div>
      ) : null}
      <div class="split">
        <div class="card">
          <h2>Enrol a host</h2>
          <ActionForm
            submit="Enrol"
            label="Enrol a host"
            onSubmit={async (d) => {
              const ids = d.getAll('workspaceIds').map(Number);
              const body: { name: string; workspaceIds?: number[] } = { name: String(d.get('name')).trim() };
              if (ids.length > 0) body.workspaceIds = ids;
              const h = await api<{ name: string; token: string }>('/df/api/hosts', { method: 'POST', body });
              setCopied(false);
              setEnrolled({ name: h.name, token: h.token });
              (document.querySelector('form[aria-label="Enrol a host"]') as HTMLFormElement | null)?.reset();
              await refresh();
            }}
          >
            <Field label="Name" name="name" required maxLength={200} />
            <fieldset>
              <legend>Workspaces (none chosen: all)</legend>
              {workspaces.map((w) => (
                <label class="check">
                  <input type="checkbox" name="workspaceIds" value={String(w.id)} /> {w.name}
                </label>
              ))}
            </fieldset>
          </ActionForm>
        </div>
        <div class="stack">
          {hosts.isLoading ? (
            <Loading />
          ) : hosts.error ? (
            <ErrorNote error={hosts.error} />
          ) : !hosts.data?.content.length ? (
            <Empty>No host is enrolled yet.</Empty>
          ) : (
            <DataTable
              caption="Hosts"
              rows={hosts.data.content}
              columns={[
                {
                  header: 'Name',
                  cell: (h) => (
                    <>
                      {renaming === h.id ? (
                        <form
                          class="row"
                          aria-label={`Rename ${h.name}`}
                          onSubmit={(e) => {
                            e.preventDefault();
                            const name = String(new FormData(e.currentTarget as HTMLFormElement).get('name')).trim();
                            void run(async () => {
                              await api(`/df/api/hosts/${h.id}`, { method: 'PUT', body: { name } });
                              setRenaming(null);
                            });
                          }}
                        >
                          <input name="name" defaultValue={h.name} required aria-label="New name" autoFocus />
                          <button type="submit">Save</button>
                          <button type="button" onClick={() => setRenaming(null)}>
                            Cancel
                          </button>
                        </form>
                      ) : (
                        h.name
                      )}
                    </>
                  ),
                },
                {
                  header: 'Workspaces',
                  cell: (h) => (
                    <>
                      {scoping === h.id ? (
                        <form
                          class="stack"
                          aria-label={`Workspaces of ${h.name}`}
                          onSubmit={(e) => {
                            e.preventDefault();
                            const ids = new FormData(e.currentTarget as HTMLFormElement).getAll('workspaceIds').map(Number);
                            void run(async () => {
                              // None chosen: every workspace of the company (null), as at enrolment.
                              await api(`/df/api/hosts/${h.id}`, { method: 'PUT', body: { workspaceIds: ids.length ? ids : null } });
                              setScoping(null);
                            });
                          }}
                        >
                          <fieldset>
                            <legend>Workspaces (none chosen: all)</legend>
                            {workspaces.map((w, i) => (
                              <label class="check">
                                <input type="checkbox" name="workspaceIds" value={String(w.id)} defaultChecked={h.workspaceIds?.includes(w.id) ?? false} autoFocus={i === 0} /> {w.name}
                              </label>
                            ))}
                          </fieldset>
                          <div class="row">
                            <button type="submit">Save</button>
                            <button type="button" onClick={() => setScoping(null)}>
                              Cancel
                            </button>
                          </div>
                        </form>
                      ) : h.workspaceIds === null ? (
                        'all'
                      ) : (
                        h.workspaceIds.map(wsName).join(', ')
                      )}
                    </>
                  ),
                },
                {
                  header: 'Status',
                  cell: (h) => (
                    <>
                      <span class={`badge ${h.status}`}>{h.status === 'pending' ? 'waiting for its first connection' : h.status}</span>
                    </>
                  ),
                },
                {
                  header: 'Devices online',
                  cell: (h) => (
                    <>
                      {h.devices.online} / {h.devices.total}
                    </>
                  ),
                },
                {
                  header: 'Enrolled', class: 'nowrap',
                  cell: (h) => (
                    <>
      {formatTime(h.createdAt)}
                    </>
                  ),
                },
                {
                  header: 'Actions', hiddenHeader: true,
                  cell: (h) => (
                    <>
                      <div class="row cell-actions">
                      {h.status !== 'revoked' && revoking !== h.id && rotating !== h.id && moving !== h.id ? (
                        <>
                          <button type="button" onClick={() => setRenaming(h.id)} aria-label={`Rename ${h.name}`}>
                            Rename
                          </button>
                          <button type="button" onClick={() => setScoping(h.id)} aria-label={`Change the workspaces of ${h.name}`}>
                            Workspaces
                          </button>
                          <button type="button" onClick={() => setRotating(h.id)} aria-label={`New token for ${h.name}`}>
                            New token
                          </button>
                          <button type="button" onClick={() => (setMoved(null), setMoving(h.id))} aria-label={`Move a device to ${h.name}`}>
                            Move a device
                          </button>
                          <button type="button" class="danger" onClick={() => setRevoking(h.id)} aria-label={`Revoke ${h.name}`}>
                            Revoke
                          </button>
                        </>
                      ) : null}
                      {moving === h.id ? (
                        <form
                          class="row"
                          aria-label={`Move a device to ${h.name}`}
                          onSubmit={(e) => {
                            e.preventDefault();
                            const deviceId = String(new FormData(e.currentTarget as HTMLFormElement).get('deviceId'));
                            const device = devices.data?.content.find((d) => d.id === deviceId);
                            void run(async () => {
                              await api(`/df/api/devices/${deviceId}/move`, { method: 'POST', body: { hostId: h.id } });
                              setMoving(null);
                              setMoved(`${device?.name ?? 'The device'} moved to ${h.name}: it is offline until that host reports it.`);
                              await qc.invalidateQueries({ queryKey: ['devices'] });
                            });
                          }}
                        >
                          <label class="field">
                            <span>Device</span>
                            <select name="deviceId" required autoFocus>
                              {(devices.data?.content ?? []).map((d) => (
                                <option value={d.id}>
                                  {d.name} ({d.nodeName})
                                </option>
                              ))}
                            </select>
                          </label>
                          <button type="submit" disabled={!devices.data?.content.length}>
                            Move
                          </button>
                          <button type="button" onClick={() => setMoving(null)}>
                            Cancel
                          </button>
                        </form>
                      ) : null}
                      {rotating === h.id ? (
                        <Confirm
                          label={`Confirm a new token for ${h.name}`}
                          question="Issue a new token? The agent must be restarted with it."
                          yes="Yes, issue it"
                          onYes={() =>
                            run(async () => {
                              const t = await api<{ name: string; token: string }>(`/df/api/hosts/${h.id}/token`, { method: 'POST' });
                              setCopied(false);
                              setEnrolled({ name: h.name, token: t.token, rotated: true });
                              setRotating(null);
                            })
                          }
                          onNo={() => setRotating(null)}
                        />
                      ) : null}
                      {revoking === h.id ? (
                        <span role="group" aria-label={`Confirm revoking ${h.name}`} class="row">
                          <span>Revoke? Its devices go offline and their sessions end.</span>
                          <button
                            type="button"
                            class="danger"
                            onClick={() =>
                              run(async () => {
                                await api(`/df/api/hosts/${h.id}`, { method: 'DELETE' });
                                setRevoking(null);
                              })
                            }
                          >
                            Yes, revoke
                          </button>
                          <button type="button" onClick={() => setRevoking(null)} autoFocus>
                            Keep it
                          </button>
                        </span>
                      ) : null}
                      </div>
                    </>
                  ),
                },
              ]}
            />
          )}
        </div>
      </div>
    </section>
  );
}
