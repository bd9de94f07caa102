import { useQuery, useQueryClient } from '@tanstack/preact-query';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Device, Host } from '@qa-platform/client';
import { api } from '../api';
import { useSession } from '../session-context';
import { Confirm, DataTable, formatTime, withFields } from '../ui';

/** A host's token, shown once: after enrolment, or after a new token was issued (`rotated`). */
export interface ShownToken {
  name: string;
  token: string;
  rotated?: boolean;
}

/** Runs a change to a host, then reads the hosts again (the page's error note shows a refusal). */
type Run = (fn: () => Promise<unknown>) => Promise<unknown>;

/** The workspaces a host serves, as checkboxes named `workspaceIds` (none chosen: all). */
export function WorkspaceChoices({ checked, autoFocusFirst }: { checked?: number[] | null; autoFocusFirst?: boolean }) {
  const { workspaces } = useSession();
  return (
    <fieldset>
      <legend>Workspaces (none chosen: all)</legend>
      {workspaces.map((w, i) => (
        <label class="check">
          <input type="checkbox" name="workspaceIds" value={String(w.id)} defaultChecked={checked?.includes(w.id) ?? false} autoFocus={autoFocusFirst === true && i === 0} /> {w.name}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * The hosts, each row with its editors: rename, workspaces, a new token (`onToken` shows it), move a
 * device to it (`onMoved` says what happened), revoke.
 */
export function HostsTable(props: { hosts: Host[]; run: Run; onToken: (shown: ShownToken) => void; onMoved: (text: string | null) => void }) {
  const { run } = props;
  const { workspaces } = useSession();
  const [scoping, setScoping] = useState<string | null>(null);
  const [rotating, setRotating] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const [moving, setMoving] = useState<string | null>(null);
  const wsName = (id: number) => workspaces.find((w) => w.id === id)?.name ?? `#${id}`;
  const idle = (h: Host) => h.status !== 'revoked' && revoking !== h.id && rotating !== h.id && moving !== h.id;
  return (
    <DataTable
      caption="Hosts"
      rows={props.hosts}
      columns={[
        {
          header: 'Name',
          cell: (h) => <>{renaming === h.id ? <RenameForm host={h} run={run} onDone={() => setRenaming(null)} /> : h.name}</>,
        },
        {
          header: 'Workspaces',
          cell: (h) => (
            <>
              {scoping === h.id ? (
                <ScopeForm host={h} run={run} onDone={() => setScoping(null)} />
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
        { header: 'Enrolled', class: 'nowrap', cell: (h) => <>{formatTime(h.createdAt)}</> },
        {
          header: 'Actions',
          hiddenHeader: true,
          cell: (h) => (
            <>
              <div class="row cell-actions">
                {idle(h) ? (
                  <HostButtons
                    host={h}
                    onRename={() => setRenaming(h.id)}
                    onScope={() => setScoping(h.id)}
                    onRotate={() => setRotating(h.id)}
                    onMove={() => (props.onMoved(null), setMoving(h.id))}
                    onRevoke={() => setRevoking(h.id)}
                  />
                ) : null}
                {moving === h.id ? <MoveForm host={h} run={run} onMoved={props.onMoved} onDone={() => setMoving(null)} /> : null}
                {rotating === h.id ? (
                  <Confirm
                    label={`Confirm a new token for ${h.name}`}
                    question="Issue a new token? The agent must be restarted with it."
                    yes="Yes, issue it"
                    onYes={() =>
                      run(async () => {
                        const t = await api<{ name: string; token: string }>(`/df/api/hosts/${h.id}/token`, { method: 'POST' });
                        props.onToken({ name: h.name, token: t.token, rotated: true });
                        setRotating(null);
                      })
                    }
                    onNo={() => setRotating(null)}
                  />
                ) : null}
                {revoking === h.id ? <RevokeConfirm host={h} run={run} onDone={() => setRevoking(null)} /> : null}
              </div>
            </>
          ),
        },
      ]}
    />
  );
}

function HostButtons(props: { host: Host; onRename: () => void; onScope: () => void; onRotate: () => void; onMove: () => void; onRevoke: () => void }) {
  const { name } = props.host;
  return (
    <>
      <button type="button" onClick={props.onRename} aria-label={`Rename ${name}`}>
        Rename
      </button>
      <button type="button" onClick={props.onScope} aria-label={`Change the workspaces of ${name}`}>
        Workspaces
      </button>
      <button type="button" onClick={props.onRotate} aria-label={`New token for ${name}`}>
        New token
      </button>
      <button type="button" onClick={props.onMove} aria-label={`Move a device to ${name}`}>
        Move a device
      </button>
      <button type="button" class="danger" onClick={props.onRevoke} aria-label={`Revoke ${name}`}>
        Revoke
      </button>
    </>
  );
}

/** What a row's editor gets: its host, the page's `run`, and `onDone`, which closes it. */
interface EditorProps {
  host: Host;
  run: Run;
  onDone: () => void;
}

/** A row's editor of the host's settings: `change` reads them from the fields; they are PUT, then the editor closes. */
function SettingsForm({ host: h, run, onDone, label, layout, change, children }: EditorProps & { label: string; layout: 'row' | 'stack'; change: (d: FormData) => Partial<Pick<Host, 'name' | 'workspaceIds'>>; children: ComponentChildren }) {
  return (
    <form
      class={layout}
      aria-label={label}
      onSubmit={withFields((d) => {
        const body = change(d);
        void run(async () => {
          await api(`/df/api/hosts/${h.id}`, { method: 'PUT', body });
          onDone();
        });
      })}
    >
      {children}
    </form>
  );
}

function SaveOrCancel({ onCancel }: { onCancel: () => void }) {
  return (
    <>
      <button type="submit">Save</button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </>
  );
}

function RenameForm(props: EditorProps) {
  return (
    <SettingsForm {...props} layout="row" label={`Rename ${props.host.name}`} change={(d) => ({ name: String(d.get('name')).trim() })}>
      <input name="name" defaultValue={props.host.name} required aria-label="New name" autoFocus />
      <SaveOrCancel onCancel={props.onDone} />
    </SettingsForm>
  );
}

function ScopeForm(props: EditorProps) {
  const change = (d: FormData) => {
    const ids = d.getAll('workspaceIds').map(Number);
    // None chosen: every workspace of the company (null), as at enrolment.
    return { workspaceIds: ids.length ? ids : null };
  };
  return (
    <SettingsForm {...props} layout="stack" label={`Workspaces of ${props.host.name}`} change={change}>
      <WorkspaceChoices checked={props.host.workspaceIds} autoFocusFirst />
      <div class="row">
        <SaveOrCancel onCancel={props.onDone} />
      </div>
    </SettingsForm>
  );
}

/** Moves a device of the company to this host; the device list is read when the form opens. */
function MoveForm({ host: h, run, onMoved, onDone }: EditorProps & { onMoved: (text: string) => void }) {
  const qc = useQueryClient();
  const devices = useQuery({
    queryKey: ['hosts', 'devices'],
    queryFn: () => api<{ content: Device[] }>('/df/api/devices', { query: { size: 100 } }),
  });
  return (
    <form
      class="row"
      aria-label={`Move a device to ${h.name}`}
      onSubmit={withFields((d) => {
        const deviceId = String(d.get('deviceId'));
        const device = devices.data?.content.find((d) => d.id === deviceId);
        void run(async () => {
          await api(`/df/api/devices/${deviceId}/move`, { method: 'POST', body: { hostId: h.id } });
          onDone();
          onMoved(`${device?.name ?? 'The device'} moved to ${h.name}: it is offline until that host reports it.`);
          await qc.invalidateQueries({ queryKey: ['devices'] });
        });
      })}
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
      <button type="button" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}

function RevokeConfirm({ host: h, run, onDone }: EditorProps) {
  return (
    <span role="group" aria-label={`Confirm revoking ${h.name}`} class="row">
      <span>Revoke? Its devices go offline and their sessions end.</span>
      <button
        type="button"
        class="danger"
        onClick={() =>
          run(async () => {
            await api(`/df/api/hosts/${h.id}`, { method: 'DELETE' });
            onDone();
          })
        }
      >
        Yes, revoke
      </button>
      <button type="button" onClick={onDone} autoFocus>
        Keep it
      </button>
    </span>
  );
}
