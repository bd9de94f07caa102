import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import type { DebugCapabilities as Capabilities, Session as SessionInfo } from '@qa-platform/client';
import { api, ApiError } from '../api';
import { Link } from '../router';
import { useSession } from '../session-context';
// The dfctl command for each target is dfctl's own vocabulary: one module, shared with `dfctl targets`.
import { commandFor, type DebugTarget } from '../../../cli/dfctl/debug-commands';
import { DataTable, Empty, ErrorNote, Loading, useAction, useClipboard } from '../ui';
import { DebugTerminal } from './debug-terminal';
import './debug.css';

/** What each protocol lets a developer do, in a person's words. */
const PROTOCOL_TEXT: Record<DebugTarget['protocol'], string> = {
  adb: 'Shell, installs, files and logs',
  jdwp: 'Java debugger on an app’s process',
  tcp_forward: 'A device TCP port at your desk',
  cdp: 'DevTools for pages and WebViews',
  usbmux: 'iOS device services (usbmuxd)',
  lldb_rsp: 'LLDB on a process',
  webkit_inspector: 'Web Inspector for pages',
};

/**
 * `/sessions/{id}/debug`: the session's debug protocols with the caller's grants, the targets a
 * debugger can attach to with the `dfctl` command for each, and for Android a shell terminal.
 */
export function DebugPage({ id }: { id: string }) {
  const { can } = useSession();
  const qc = useQueryClient();
  const allowed = can('df:debug:use');
  const session = useQuery({ queryKey: ['session', id], queryFn: () => api<SessionInfo>(`/df/api/sessions/${id}`) });
  const caps = useQuery({
    queryKey: ['debug-capabilities', id],
    queryFn: () => api<Capabilities>(`/df/api/sessions/${id}/debug-capabilities`),
    enabled: allowed,
  });
  const changing = useAction();
  /** The protocol being granted or withdrawn. */
  const [busy, setBusy] = useState<string | null>(null);

  /** Grants or withdraws one protocol; the answer is the new capabilities (or nothing, for a withdrawal). */
  const change = async (protocol: string, grant: boolean): Promise<boolean> => {
    setBusy(protocol);
    try {
      return await changing.run(async () => {
        if (grant) {
          const next = await api<Capabilities>(`/df/api/sessions/${id}/debug-capabilities`, { method: 'POST', body: { protocols: [protocol] } });
          qc.setQueryData(['debug-capabilities', id], next);
        } else {
          await api(`/df/api/sessions/${id}/debug-capabilities`, { method: 'DELETE', query: { protocol } });
          await qc.invalidateQueries({ queryKey: ['debug-capabilities', id] });
        }
        await qc.invalidateQueries({ queryKey: ['debug-targets', id] });
      });
    } finally {
      setBusy(null);
    }
  };

  const title = session.data ? session.data.name || session.data.deviceName : '';
  const header = (
    <div class="title-row">
      <h1>Debugging</h1>
      {session.data ? (
        <span class="muted small">
          {title}
          {title.includes(session.data.deviceName) ? '' : ` · ${session.data.deviceName}`} <span class={`badge ${session.data.status}`}>{session.data.status}</span>
        </span>
      ) : null}
      <Link href={`/sessions/${id}`}>Back to the session</Link>
    </div>
  );

  if (!allowed)
    return (
      <section>
        {header}
        <p>Debugging needs the permission key df:debug:use in this workspace.</p>
      </section>
    );
  if (caps.isLoading) return <section>{header}<Loading label="Loading the session’s debug protocols…" /></section>;
  if (caps.error)
    return (
      <section>
        {header}
        <ErrorNote error={caps.error} />
        {caps.error instanceof ApiError && caps.error.status === 403 ? <p>Debugging needs control of the session (its owner, a session manager, or a control invitation).</p> : null}
      </section>
    );
  const c = caps.data!;
  const adb = c.protocols.find((p) => p.name === 'adb');
  // Only Android devices have a shell (adb); the terminal sits beside the protocols, the targets below.
  const terminal = c.platform === 'android' && adb !== undefined;

  return (
    <section class="stack debug-page">
      {header}
      <div class="debug-grid">
        <section class="card" aria-labelledby="debug-protocols">
          <h2 id="debug-protocols">Protocols</h2>
          <p class="muted small">
            Platform {c.platform}. Access is yours alone, recorded on the session’s timeline, and ends with the session.
          </p>
          {c.protocols.length === 0 ? <Empty>This device offers no debug protocol.</Empty> : null}
          {c.protocols.length > 0 ? (
            <DataTable
              caption="Debug protocols"
              rows={c.protocols}
              rowKey={(p) => p.name}
              columns={[
                {
                  header: 'Protocol',
                  cell: (p) => (
                    <>
                      <strong>{p.name}</strong>{' '}
                      {!p.available ? <span class="badge offline">not available</span> : p.granted ? <span class="badge active">granted</span> : <span class="badge">available</span>}
                      <div class="muted small">{PROTOCOL_TEXT[p.name] ?? ''}</div>
                    </>
                  ),
                },
                {
                  header: 'Action',
                  hiddenHeader: true,
                  class: 'nowrap protocol-action',
                  cell: (p) => (
                    <>
                      {p.available && !p.granted ? (
                        <button type="button" class="primary" disabled={busy !== null} onClick={() => void change(p.name, true)}>
                          {busy === p.name ? 'Requesting…' : 'Request access'}
                          <span class="sr-only"> to {p.name}</span>
                        </button>
                      ) : null}
                      {p.granted ? (
                        <button type="button" disabled={busy !== null} onClick={() => void change(p.name, false)}>
                          {busy === p.name ? 'Withdrawing…' : 'Withdraw'}
                          <span class="sr-only"> access to {p.name}</span>
                        </button>
                      ) : null}
                    </>
                  ),
                },
              ]}
            />
          ) : null}
          <ErrorNote error={changing.error} />
        </section>
        {terminal ? <DebugTerminal sessionId={id} adbGranted={adb.granted} adbAvailable={adb.available} requestAdb={() => change('adb', true)} /> : null}
        <Targets id={id} wide={terminal} />
      </div>
    </section>
  );
}

function Targets({ id, wide }: { id: string; wide: boolean }) {
  const targets = useQuery({
    queryKey: ['debug-targets', id],
    queryFn: () => api<{ targets: DebugTarget[] }>(`/df/api/sessions/${id}/debug-targets`),
  });
  const clipboard = useClipboard('the command');
  const list = targets.data?.targets ?? [];
  return (
    <section class={wide ? 'card wide' : 'card'} aria-labelledby="debug-targets">
      <div class="card-head">
        <h2 id="debug-targets">Targets</h2>
        <button type="button" onClick={() => void targets.refetch()} disabled={targets.isFetching}>
          {targets.isFetching && !targets.isLoading ? 'Refreshing…' : 'Refresh targets'}
        </button>
      </div>
      <p class="muted small">What a debugger can attach to, and the command that reaches it from your desk (the protocol must be granted first).</p>
      {targets.isLoading ? <Loading label="Loading the targets…" /> : null}
      <ErrorNote error={targets.error} />
      {targets.data && list.length === 0 ? <Empty>Nothing to attach to right now. Start the app you want to debug, then refresh.</Empty> : null}
      {list.length > 0 ? (
        <DataTable
          caption="Debug targets"
          rows={list}
          rowKey={(t) => t.id}
          columns={[
            { header: 'Kind', cell: (t) => <span class="badge">{t.kind}</span> },
            { header: 'Title', cell: (t) => t.title },
            { header: 'Package', cell: (t) => t.package ?? '—' },
            { header: 'PID', cell: (t) => t.pid ?? '—' },
            {
              header: 'Command',
              cell: (t) => {
                const command = commandFor(id, t);
                return command ? clipboard.command(t.id, command, `the command for ${t.title}`) : '—';
              },
            },
          ]}
        />
      ) : null}
      {clipboard.status}
    </section>
  );
}
