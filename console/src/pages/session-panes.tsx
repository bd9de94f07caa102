import type { ComponentChildren } from 'preact';
import { useQuery } from '@tanstack/preact-query';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { useLocation } from '../router';
import { Empty, ErrorNote, formatClock, Loading } from '../ui';
import { describeActivity, type ActivityEntry } from './activity-label';
import { AppsPane, FilesPane } from './session-device';
import { ReplayPanel } from './session-replay';

/** The panes beside a session's screen. */
export type Pane = 'activity' | 'logs' | 'notes' | 'replay' | 'apps' | 'files' | 'sharing';

/** The side's tabs and the pane chosen (`?pane=replay` opens one: the link test runners print); `children` is the sharing pane. */
export function SessionPanes(props: { panes: Pane[]; id: string; platform: string | undefined; control: boolean; viewers: number; children: ComponentChildren }) {
  const { panes, id, platform } = props;
  const { query } = useLocation();
  const [tab, setTab] = useState<Pane>((query.get('pane') as Pane | null) ?? 'activity');
  // A pane that went away (control lost, the session ended) gives way to the activity.
  const shown = panes.includes(tab) ? tab : 'activity';
  return (
    <>
      <div class="tabs" role="tablist" aria-label="Session panes">
        {panes.map((t) => (
          <button type="button" role="tab" id={`tab-${t}`} aria-controls={`pane-${t}`} aria-selected={shown === t} onClick={() => setTab(t)}>
            {t === 'sharing' ? `Viewers and sharing (${props.viewers})` : t[0]!.toUpperCase() + t.slice(1)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`pane-${shown}`} aria-labelledby={`tab-${shown}`} class="pane" tabIndex={0}>
        {shown === 'activity' ? <Activity id={id} /> : null}
        {shown === 'logs' ? <Logs id={id} /> : null}
        {shown === 'replay' ? <ReplayPanel id={id} /> : null}
        {shown === 'apps' && platform ? <AppsPane id={id} platform={platform} /> : null}
        {shown === 'files' && platform ? <FilesPane id={id} platform={platform} /> : null}
        {shown === 'notes' ? <Notes id={id} editable={props.control} /> : null}
        {shown === 'sharing' ? props.children : null}
      </div>
    </>
  );
}

function Activity({ id }: { id: string }) {
  const q = useQuery({
    queryKey: ['activities', id],
    queryFn: () => api<{ content: ActivityEntry[] }>(`/df/api/sessions/${id}/activities`, { query: { size: 100, sortDir: 'desc' } }),
    refetchInterval: 3_000,
  });
  if (q.isLoading) return <Loading />;
  if (q.error) return <ErrorNote error={q.error} />;
  const items = q.data!.content;
  if (items.length === 0) return <Empty>Nothing has happened yet.</Empty>;
  return (
    <ol class="timeline">
      {items.map((a) => (
        <li>
          <time>{formatClock(a.at)}</time> <strong>{describeActivity(a)}</strong> <span class="muted small">{summarise(a.detail)}</span>
        </li>
      ))}
    </ol>
  );
}

const summarise = (detail: Record<string, unknown> | undefined) =>
  detail
    ? Object.entries(detail)
        .filter(([, v]) => v !== null && typeof v !== 'object')
        .map(([k, v]) => `${k}: ${String(v)}`)
        .join(', ')
    : '';

function Logs({ id }: { id: string }) {
  const [follow, setFollow] = useState(true);
  const list = useRef<HTMLOListElement | null>(null);
  const q = useQuery({
    queryKey: ['logs', id],
    queryFn: () => api<{ entries: { seq: number; at: string; level: string; source: string; text: string }[] }>(`/df/api/sessions/${id}/logs`),
    refetchInterval: follow ? 2_000 : false,
  });
  useEffect(() => {
    if (follow && list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [q.data, follow]);
  return (
    <div>
      <label class="check">
        <input type="checkbox" checked={follow} onChange={(e) => setFollow((e.target as HTMLInputElement).checked)} /> Follow
      </label>
      {q.isLoading ? <Loading /> : null}
      <ErrorNote error={q.error} />
      {q.data && q.data.entries.length === 0 ? <Empty>No log lines yet.</Empty> : null}
      <ol class="logs" ref={list} tabIndex={0} aria-label="Device log">
        {q.data?.entries.map((e) => (
          <li class={`log-${e.level}`}>
            <time>{formatClock(e.at)}</time> [{e.source}] {e.text}
          </li>
        ))}
      </ol>
    </div>
  );
}

function Notes({ id, editable }: { id: string; editable: boolean }) {
  const q = useQuery({ queryKey: ['notes', id], queryFn: () => api<{ notes: string }>(`/df/api/sessions/${id}/notes`) });
  const [value, setValue] = useState<string | null>(null);
  const [state, setState] = useState<unknown>(null);
  if (q.isLoading) return <Loading />;
  if (q.error) return <ErrorNote error={q.error} />;
  return (
    <form
      class="stack"
      onSubmit={async (e) => {
        e.preventDefault();
        try {
          await api(`/df/api/sessions/${id}/notes`, { method: 'PUT', body: { notes: value ?? q.data!.notes } });
          setState('Saved.');
        } catch (err) {
          setState(err);
        }
      }}
    >
      <label class="field">
        <span>Notes</span>
        <textarea rows={10} readOnly={!editable} value={value ?? q.data!.notes} onInput={(e) => setValue((e.target as HTMLTextAreaElement).value)} />
      </label>
      {editable ? <button type="submit">Save notes</button> : null}
      {typeof state === 'string' ? <p class="ok" role="status">{state}</p> : <ErrorNote error={state} />}
    </form>
  );
}
