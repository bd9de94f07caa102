import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, currentAuth, download, switchWorkspace } from '../api';
import { Link, navigate, sessionInviteLink } from '../router';
import { useSession } from '../session-context';
import { Confirm, Empty, ErrorNote, formatClock, formatTime, Loading, messageOf, useAction } from '../ui';
import { describeActivity, type ActivityEntry } from './activity-label';
import { AUDITED_PLATFORMS, AuditButton, AuditStatus, useSessionAudit } from './session-audit';
import { accessText, EndSessionButton } from './session-end';
import { InspectOverlay, InspectPanel, useInspector } from './session-inspect';
import { useScreenBoxHeight } from './session-screen-size';
import { AppsPane, FilesPane } from './session-device';
import { RecordingButtons, RecordingIndicator, ReplayPanel } from './session-replay';

interface SessionInfo {
  id: string;
  name: string;
  deviceId: string;
  deviceName: string;
  type: string;
  status: string;
  startedAt: string;
  endedAt: string | null;
  endReason: string | null;
  ownerId: number;
  screen: { width: number; height: number; scale: number } | null;
}

interface Viewer {
  userId: number;
  name: string;
  access: 'view' | 'control';
  connectedAt: string;
  connections: number;
}

type Action =
  | { action: 'tap' | 'longPress'; x: number; y: number; durationMs?: number }
  | { action: 'swipe'; x1: number; y1: number; x2: number; y2: number; durationMs?: number }
  | { action: 'text'; text: string }
  | { action: 'key'; key: string }
  | { action: 'home' | 'back' }
  | { action: 'rotate'; orientation: 'portrait' | 'landscape' }
  | { action: 'openUrl'; url: string };

interface Live {
  state: 'connecting' | 'live' | 'closed';
  canControl: boolean;
  access: 'view' | 'control' | null;
  screen: { width: number; height: number } | null;
  viewers: Viewer[];
  ended: string | null;
  error: string | null;
  /** Why the platform closed this viewer out (disconnected by the owner, invitation revoked). */
  removed: string | null;
  frames: number;
}

/** Error codes that mean this person no longer has access: the socket is closed for good. */
type Pane = 'activity' | 'logs' | 'notes' | 'replay' | 'apps' | 'files' | 'sharing';

const REMOVAL_CODES = new Set(['SESSION_ACCESS_WITHDRAWN', 'INVITATION_REVOKED']);
/** What the API answers a reader of the workspace who may see the session's record but not its screen or data. */
export const CONTENT_FORBIDDEN_TEXT = "Only the session's owner, the people it is shared with and reviewers can see its screen.";

/**
 * The viewer socket (`/df/ws/sessions/{id}`): JPEG frames drawn on a canvas as they come, presence,
 * and inputs sent as `{type: "input", id, action}` answered by `ack` or `error`.
 */
function useLiveScreen(sessionId: string, canvas: { current: HTMLCanvasElement | null }) {
  const [live, setLive] = useState<Live>({ state: 'connecting', canControl: false, access: null, screen: null, viewers: [], ended: null, error: null, removed: null, frames: 0 });
  const socket = useRef<WebSocket | null>(null);
  const pending = useRef(new Map<string, { resolve: () => void; reject: (e: Error) => void }>());
  const nextId = useRef(1);

  useEffect(() => {
    const auth = currentAuth();
    if (!auth) return;
    const url = new URL(`/df/ws/sessions/${encodeURIComponent(sessionId)}`, location.href);
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('access_token', auth.token);
    if (auth.workspaceId) url.searchParams.set('workspaceId', String(auth.workspaceId));
    const ws = new WebSocket(url);
    ws.binaryType = 'blob';
    socket.current = ws;
    let drawing = Promise.resolve();
    let frames = 0;
    ws.onmessage = (event) => {
      if (typeof event.data !== 'string') {
        const blob = event.data as Blob;
        // Frames are drawn in order; a decode never overlaps the next one.
        drawing = drawing.then(async () => {
          const bitmap = await createImageBitmap(blob);
          const c = canvas.current;
          if (c) {
            if (c.width !== bitmap.width || c.height !== bitmap.height) {
              c.width = bitmap.width;
              c.height = bitmap.height;
            }
            c.getContext('2d')!.drawImage(bitmap, 0, 0);
            frames += 1;
            c.dataset.frames = String(frames);
          }
          bitmap.close();
          if (frames === 1) setLive((l) => ({ ...l, state: 'live', frames }));
        });
        return;
      }
      const msg = JSON.parse(event.data) as { type: string; [k: string]: unknown };
      switch (msg.type) {
        case 'hello':
          setLive((l) => ({ ...l, canControl: Boolean(msg.canControl), access: msg.access as Live['access'], screen: (msg.screen as Live['screen']) ?? null }));
          break;
        case 'viewers':
          setLive((l) => ({ ...l, viewers: msg.viewers as Viewer[] }));
          break;
        case 'ack': {
          const p = pending.current.get(String(msg.id));
          pending.current.delete(String(msg.id));
          p?.resolve();
          break;
        }
        case 'error': {
          const text = String(msg.message ?? msg.code ?? 'Error');
          if (REMOVAL_CODES.has(String(msg.code))) {
            setLive((l) => ({ ...l, removed: text }));
            break;
          }
          const p = msg.id !== undefined ? pending.current.get(String(msg.id)) : undefined;
          if (p) {
            pending.current.delete(String(msg.id));
            p.reject(new Error(text));
          } else setLive((l) => ({ ...l, error: text }));
          break;
        }
        case 'ended':
          setLive((l) => ({ ...l, ended: String(msg.reason ?? 'ended') }));
          break;
      }
    };
    ws.onclose = (event) => {
      for (const p of pending.current.values()) p.reject(new Error('The live screen closed'));
      pending.current.clear();
      // 4403 with a removal code: the error message before it usually said why; if it was lost, say it here.
      const removal = event.code === 4403 && REMOVAL_CODES.has(event.reason);
      setLive((l) => ({
        ...l,
        state: 'closed',
        removed: removal ? (l.removed ?? (event.reason === 'INVITATION_REVOKED' ? 'The invitation that gave you access to this session was revoked' : "The session's owner disconnected you from this session")) : l.removed,
        error: l.ended || removal ? l.error : l.error ?? (event.reason || (event.code === 1000 ? null : `Closed (${event.code})`)),
      }));
    };
    const ping = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify({ type: 'ping' })), 25_000);
    return () => {
      clearInterval(ping);
      ws.close(1000);
    };
  }, [sessionId]);

  const send = (action: Action) =>
    new Promise<void>((resolve, reject) => {
      const ws = socket.current;
      if (!ws || ws.readyState !== WebSocket.OPEN) return reject(new Error('The live screen is not connected'));
      const id = String(nextId.current++);
      pending.current.set(id, { resolve, reject });
      ws.send(JSON.stringify({ type: 'input', id, action }));
    });
  return { live, send };
}

const NAMED_KEYS: Record<string, string> = {
  Enter: 'enter',
  Backspace: 'backspace',
  Tab: 'tab',
  Escape: 'escape',
  Delete: 'delete',
  ArrowUp: 'arrowup',
  ArrowDown: 'arrowdown',
  ArrowLeft: 'arrowleft',
  ArrowRight: 'arrowright',
  Home: 'home',
  End: 'end',
  PageUp: 'pageup',
  PageDown: 'pagedown',
};

export function SessionPage({ id }: { id: string }) {
  const qc = useQueryClient();
  const { me, can } = useSession();
  const session = useQuery({ queryKey: ['session', id], queryFn: () => api<SessionInfo>(`/df/api/sessions/${id}`), refetchInterval: 10_000 });
  const platform = useQuery({
    queryKey: ['device-platform', session.data?.deviceId],
    queryFn: async () => (await api<{ platform: string }>(`/df/api/devices/${session.data!.deviceId}`)).platform,
    enabled: Boolean(session.data?.deviceId),
    staleTime: Infinity,
  }).data;
  // Whether this person may see the session's content at all (its screen, logs, recordings): asked once, cheaply.
  const content = useQuery({
    queryKey: ['session-content', id],
    queryFn: () => api<unknown[]>(`/df/api/sessions/${id}/artifacts?type=log`).then(() => true),
    retry: false,
    staleTime: 60_000,
  });
  const noContent = content.error instanceof ApiError && (content.error.code === 'SESSION_CONTENT_FORBIDDEN' || content.error.code === 'SESSION_ACCESS_WITHDRAWN');
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const { live, send } = useLiveScreen(id, canvas);
  const [actionError, setActionError] = useState<unknown>(null);
  const [orientation, setOrientation] = useState<'portrait' | 'landscape'>('portrait');
  const [tab, setTab] = useState<Pane>('activity');
  const inspector = useInspector(id);
  const screenBox = useScreenBoxHeight();
  const audit = useSessionAudit(id, session.data?.name || session.data?.deviceName || 'Session');
  const pointer = useRef<{ x: number; y: number; at: number; id: number } | null>(null);
  // Inputs go one after another, each after the previous one's answer, so typed text keeps its order.
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const act = (a: Action) => {
    setActionError(null);
    const sent = queue.current.then(() => send(a));
    queue.current = sent.catch(() => undefined);
    return sent.catch(setActionError);
  };
  const toDevice = (e: PointerEvent) => {
    const c = canvas.current!;
    const rect = c.getBoundingClientRect();
    // The frame is drawn contained in the element's box (object-fit: contain).
    const scale = Math.min(rect.width / c.width, rect.height / c.height);
    const left = rect.left + (rect.width - c.width * scale) / 2;
    const top = rect.top + (rect.height - c.height * scale) / 2;
    const rx = Math.min(Math.max((e.clientX - left) / (c.width * scale), 0), 1);
    const ry = Math.min(Math.max((e.clientY - top) / (c.height * scale), 0), 1);
    let w = live.screen?.width ?? c.width;
    let h = live.screen?.height ?? c.height;
    if (c.width > c.height !== w > h) [w, h] = [h, w];
    return { x: Math.round(rx * (w - 1)), y: Math.round(ry * (h - 1)) };
  };

  if (session.isLoading) return <Loading />;
  if (session.error) return <ErrorNote error={session.error} />;
  const s = session.data!;
  const control = live.canControl && !live.ended && !live.removed && s.status === 'active';
  const ended = Boolean(live.ended) || s.status === 'ended' || s.status === 'failed';
  // Audits: devices whose platform has a scan, for whoever drives the session with the key the API asks.
  const audits = control && can('df:accessibility:use') && AUDITED_PLATFORMS.has(platform ?? '');
  // The API's rule for sharing (and so for revoking and disconnecting): the owner with
  // df:session:share, or anyone holding df:session:manage.
  const mayShare = (me?.id === s.ownerId && can('df:session:share')) || can('df:session:manage');
  // Apps and files: devices that have them, for whoever drives the session with the key the API asks.
  const devicePanes = control && can('df:app:install') && (platform === 'android' || platform === 'ios');
  const panes: Pane[] = noContent ? ['activity', 'notes', 'sharing'] : ['activity', 'logs', 'notes', 'replay', ...(devicePanes ? (['apps', 'files'] as const) : []), 'sharing'];
  // A pane that went away (control lost, the session ended) gives way to the activity.
  const shown = panes.includes(tab) ? tab : 'activity';

  return (
    <section class="session">
      <div class="title-row">
        <h1>{s.name || s.deviceName}</h1>
        <span class={`badge ${live.ended ? 'ended' : s.status}`}>{live.ended ? 'ended' : s.status}</span>
        <span class="muted small">
          {s.deviceName} · started {formatTime(s.startedAt)} · {noContent && !ended ? 'its record only' : accessText(ended, live.access)}
        </span>
        <RecordingIndicator id={id} />
        {control ? <Link href={`/sessions/${id}/debug`}>Debug</Link> : null}
      </div>
      <div class="session-layout">
        <div class="screen-col">
          {control ? (
            <div class="toolbar" role="toolbar" aria-label="Device controls">
              <button type="button" onClick={() => act({ action: 'home' })}>
                Home
              </button>
              <button type="button" onClick={() => act({ action: 'back' })}>
                Back
              </button>
              <button
                type="button"
                onClick={() => {
                  const next = orientation === 'portrait' ? 'landscape' : 'portrait';
                  setOrientation(next);
                  void act({ action: 'rotate', orientation: next });
                }}
              >
                Rotate
              </button>
              <button type="button" onClick={() => download(`/df/api/sessions/${id}/screenshot`, `screenshot-${id}.png`).catch(setActionError)}>
                Screenshot
              </button>
              <RecordingButtons id={id} />
              <button type="button" aria-pressed={inspector.on} onClick={inspector.toggle}>
                Inspect
              </button>
              {audits ? <AuditButton audit={audit} /> : null}
              <EndSessionButton id={id} onEnded={() => qc.invalidateQueries({ queryKey: ['session', id] })} />
            </div>
          ) : null}
          {noContent ? (
            <p class="content-forbidden" role="status">
              {content.error instanceof ApiError && content.error.code === 'SESSION_ACCESS_WITHDRAWN' ? "The session's owner disconnected you from this session." : CONTENT_FORBIDDEN_TEXT}
            </p>
          ) : null}
          <AuditStatus audit={audit} />
          <div class="screen-frame" hidden={noContent} ref={screenBox.ref} style={screenBox.height ? { height: `${screenBox.height}px` } : undefined}>
            <canvas
              ref={canvas}
              class={control ? 'screen controllable' : 'screen'}
              tabIndex={control ? 0 : -1}
              aria-label={control ? 'Device screen: click to tap, hold to long-press, drag to swipe; type while focused' : 'Device screen (view only)'}
              role="img"
              width={s.screen?.width ?? 360}
              height={s.screen?.height ?? 640}
              onPointerDown={(e) => {
                // While inspecting, the overlay takes the pointer; nothing taps the device.
                if (!control || inspector.on) return;
                (e.currentTarget as HTMLCanvasElement).focus();
                (e.currentTarget as HTMLCanvasElement).setPointerCapture(e.pointerId);
                const p = toDevice(e);
                pointer.current = { ...p, at: performance.now(), id: e.pointerId };
                e.preventDefault();
              }}
              onPointerUp={(e) => {
                const from = pointer.current;
                pointer.current = null;
                if (!control || !from) return;
                const to = toDevice(e);
                const held = performance.now() - from.at;
                const moved = Math.hypot(to.x - from.x, to.y - from.y);
                if (moved > 12) void act({ action: 'swipe', x1: from.x, y1: from.y, x2: to.x, y2: to.y, durationMs: Math.min(Math.max(Math.round(held), 100), 3000) });
                else if (held > 600) void act({ action: 'longPress', x: from.x, y: from.y, durationMs: Math.min(Math.round(held), 10_000) });
                else void act({ action: 'tap', x: from.x, y: from.y });
              }}
              onPointerCancel={() => (pointer.current = null)}
              onKeyDown={(e) => {
                if (!control || e.ctrlKey || e.metaKey || e.altKey) return;
                const named = NAMED_KEYS[e.key];
                if (named) void act({ action: 'key', key: named });
                else if (e.key.length === 1) void act({ action: 'text', text: e.key });
                else return;
                e.preventDefault();
              }}
            />
            <InspectOverlay inspector={inspector} canvas={canvas} screen={live.screen} />
            {live.state === 'connecting' ? <div class="screen-note">Connecting to the live screen…</div> : null}
            {live.ended ? (
              <div class="screen-note" role="status">
                The session ended ({live.ended}).
              </div>
            ) : null}
            {live.removed ? (
              <div class="screen-note removed" role="alert">
                You were disconnected: {live.removed}.
              </div>
            ) : null}
          </div>
          {control ? <TypeBar act={act} /> : null}
          {noContent ? null : <ErrorNote error={actionError ?? live.error} />}
        </div>
        <aside class="side">
          {inspector.on ? <InspectPanel inspector={inspector} /> : null}
          <div class="tabs" role="tablist" aria-label="Session panes">
            {panes.map((t) => (
              <button type="button" role="tab" id={`tab-${t}`} aria-controls={`pane-${t}`} aria-selected={shown === t} onClick={() => setTab(t)}>
                {t === 'sharing' ? `Viewers and sharing (${live.viewers.length})` : t[0]!.toUpperCase() + t.slice(1)}
              </button>
            ))}
          </div>
          <div role="tabpanel" id={`pane-${shown}`} aria-labelledby={`tab-${shown}`} class="pane" tabIndex={0}>
            {shown === 'activity' ? <Activity id={id} /> : null}
            {shown === 'logs' ? <Logs id={id} /> : null}
            {shown === 'replay' ? <ReplayPanel id={id} /> : null}
            {shown === 'apps' && platform ? <AppsPane id={id} platform={platform} /> : null}
            {shown === 'files' && platform ? <FilesPane id={id} platform={platform} /> : null}
            {shown === 'notes' ? <Notes id={id} editable={control} /> : null}
            {shown === 'sharing' ? <Sharing id={id} viewers={live.viewers} me={me?.id} mayShare={mayShare} active={s.status === 'active'} /> : null}
          </div>
        </aside>
      </div>
    </section>
  );
}

function TypeBar({ act }: { act: (a: Action) => Promise<unknown> }) {
  const [textValue, setText] = useState('');
  const [url, setUrl] = useState('');
  return (
    <div class="typebar">
      <form
        class="row"
        onSubmit={async (e) => {
          e.preventDefault();
          if (!textValue) return;
          await act({ action: 'text', text: textValue });
          setText('');
        }}
      >
        <label class="field grow">
          <span>Type on the device</span>
          <input value={textValue} onInput={(e) => setText((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit">Send text</button>
        <button type="button" onClick={() => act({ action: 'key', key: 'enter' })}>
          Enter
        </button>
      </form>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (url) void act({ action: 'openUrl', url });
        }}
      >
        <label class="field grow">
          <span>Open an address</span>
          <input type="url" value={url} placeholder="https://…" onInput={(e) => setUrl((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit">Open</button>
      </form>
    </div>
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

interface Invitation {
  id: string;
  type: 'user' | 'link';
  access: 'view' | 'control';
  userId: number | null;
  email: string | null;
  expiresAt: string;
  maxUses: number | null;
  uses: number;
  createdAt: string;
}

/**
 * Viewers and sharing: who watches now, and — for whoever may share (the owner with df:session:share,
 * or df:session:manage) — disconnecting a viewer, inviting, making links, and revoking either.
 */
function Sharing({ id, viewers, me, mayShare, active }: { id: string; viewers: Viewer[]; me: number | undefined; mayShare: boolean; active: boolean }) {
  const qc = useQueryClient();
  const [created, setCreated] = useState<{ url: string; access: string } | null>(null);
  const [message, setMessage] = useState<unknown>(null);
  const [access, setAccess] = useState<'view' | 'control'>('view');
  const [confirming, setConfirming] = useState<string | null>(null);
  const action = useAction();
  const invitations = useQuery({
    queryKey: ['invitations', id],
    queryFn: () => api<Invitation[]>(`/df/api/sessions/${id}/invitations`),
    enabled: mayShare,
  });
  const links = useQuery({
    queryKey: ['invitation-links', id],
    queryFn: () => api<Invitation[]>(`/df/api/sessions/${id}/invitations/links`),
    enabled: mayShare,
  });
  const refresh = () => Promise.all([qc.invalidateQueries({ queryKey: ['invitations', id] }), qc.invalidateQueries({ queryKey: ['invitation-links', id] })]);
  // Someone joining or leaving is when a link's use count or an invitation changes: read them again then.
  const presence = viewers.map((v) => v.userId).join(',');
  useEffect(() => {
    if (mayShare) void refresh();
  }, [presence, mayShare]);
  const invite = async (body: Record<string, unknown>) => {
    setMessage(null);
    try {
      const inv = await api<{ token?: string; access: string }>(`/df/api/sessions/${id}/invitations`, { method: 'POST', body: { ...body, access } });
      // The link opens this console's own accepting page, at the address the person uses now.
      if (inv.token) setCreated({ url: sessionInviteLink(inv.token), access: inv.access });
      else setMessage(`Invitation mailed (${inv.access}).`);
      await refresh();
    } catch (err) {
      setMessage(err);
    }
  };
  const revoke = (inv: Invitation) =>
    action.run(async () => {
      await api(inv.type === 'link' ? `/df/api/sessions/${id}/invitations/links/${inv.id}` : `/df/api/sessions/${id}/invitations/${inv.id}`, { method: 'DELETE' });
      setConfirming(null);
      await refresh();
    });
  const disconnect = (v: Viewer) =>
    action.run(async () => {
      await api(`/df/api/sessions/${id}/viewers/${v.userId}`, { method: 'DELETE' });
      setConfirming(null);
    });
  const linkName = (l: Invitation) => `link made ${formatTime(l.createdAt)}`;
  return (
    <div class="stack">
      <h2>Watching now</h2>
      {viewers.length === 0 ? <Empty>Nobody is connected.</Empty> : null}
      <ul class="viewers" aria-label="Viewers">
        {viewers.map((v) => (
          <li>
            {v.name} <span class="badge">{v.access}</span> <span class="muted small">since {formatClock(v.connectedAt)}</span>
            {mayShare && v.userId !== me ? (
              confirming === `viewer:${v.userId}` ? (
                <Confirm
                  label={`Confirm disconnecting ${v.name}`}
                  question="Disconnect? Their access to this session ends."
                  yes="Yes, disconnect"
                  onYes={() => disconnect(v)}
                  onNo={() => setConfirming(null)}
                />
              ) : (
                <button type="button" class="danger small-button" aria-label={`Disconnect ${v.name}`} onClick={() => setConfirming(`viewer:${v.userId}`)}>
                  Disconnect
                </button>
              )
            ) : null}
          </li>
        ))}
      </ul>
      <ErrorNote error={action.error} />
      {mayShare ? (
        <>
          <h2>Invitations</h2>
          {invitations.isLoading ? <Loading /> : null}
          <ErrorNote error={invitations.error} />
          {invitations.data && invitations.data.length === 0 ? <Empty>No coworker is invited.</Empty> : null}
          {invitations.data && invitations.data.length > 0 ? (
            <ul class="plain-list" aria-label="Invitations">
              {invitations.data.map((inv) => (
                <li>
                  {inv.email ?? `user #${inv.userId}`} <span class="badge">{inv.access}</span> <span class="muted small">until {formatTime(inv.expiresAt)}</span>
                  {confirming === `inv:${inv.id}` ? (
                    <Confirm
                      label={`Confirm revoking the invitation of ${inv.email ?? inv.userId}`}
                      question="Revoke? The access it gave ends."
                      yes="Yes, revoke"
                      onYes={() => revoke(inv)}
                      onNo={() => setConfirming(null)}
                    />
                  ) : (
                    <button type="button" class="danger small-button" aria-label={`Revoke the invitation of ${inv.email ?? inv.userId}`} onClick={() => setConfirming(`inv:${inv.id}`)}>
                      Revoke
                    </button>
                  )}
                </li>
              ))}
            </ul>
          ) : null}
          <h2>Shareable links</h2>
          {links.isLoading ? <Loading /> : null}
          <ErrorNote error={links.error} />
          {links.data && links.data.length === 0 ? <Empty>No link is open.</Empty> : null}
          {links.data && links.data.length > 0 ? (
            <ul class="plain-list" aria-label="Open links">
              {links.data.map((l) => (
                <li>
                  {linkName(l)} <span class="badge">{l.access}</span>{' '}
                  <span class="muted small">
                    {l.uses}
                    {l.maxUses ? ` of ${l.maxUses}` : ''} used · until {formatTime(l.expiresAt)}
                  </span>
                  {confirming === `link:${l.id}` ? (
                    <Confirm
                      label={`Confirm revoking the ${linkName(l)}`}
                      question="Revoke? Nobody can use it any more, and the access it gave ends."
                      yes="Yes, revoke"
                      onYes={() => revoke(l)}
                      onNo={() => setConfirming(null)}
                    />
                  ) : (
                    <button type="button" class="danger small-button" aria-label={`Revoke the ${linkName(l)}`} onClick={() => setConfirming(`link:${l.id}`)}>
                      Revoke
                    </button>
                  )}
                </li>
              ))}
            </ul>
          ) : null}
        </>
      ) : null}
      {mayShare && active ? (
        <>
          <h2>Share</h2>
          <fieldset class="row">
            <legend>Access</legend>
            <label class="check">
              <input type="radio" name="access" checked={access === 'view'} onChange={() => setAccess('view')} /> View
            </label>
            <label class="check">
              <input type="radio" name="access" checked={access === 'control'} onChange={() => setAccess('control')} /> Control
            </label>
          </fieldset>
          <form
            class="row"
            onSubmit={(e) => {
              e.preventDefault();
              const email = String(new FormData(e.currentTarget as HTMLFormElement).get('email') ?? '').trim();
              if (email) void invite({ email });
            }}
          >
            <label class="field grow">
              <span>Invite a coworker by e-mail</span>
              <input type="email" name="email" required />
            </label>
            <button type="submit">Invite</button>
          </form>
          <button type="button" onClick={() => invite({ link: true })}>
            Make a link
          </button>
          {created ? (
            <div class="card">
              <label class="field">
                <span>Shareable link ({created.access}); shown once</span>
                <input readOnly value={created.url} onFocus={(e) => (e.target as HTMLInputElement).select()} aria-label="Shareable link" />
              </label>
              <button
                type="button"
                onClick={async () => {
                  try {
                    await navigator.clipboard.writeText(created.url);
                    setMessage('Link copied.');
                  } catch {
                    setMessage('Copying was refused by the browser; select the link and copy it yourself.');
                  }
                }}
              >
                Copy
              </button>
            </div>
          ) : null}
          {typeof message === 'string' ? <p class="ok" role="status">{message}</p> : <ErrorNote error={message} />}
        </>
      ) : null}
    </div>
  );
}

/** `/device-farm/session-invite/{token}`: accepts the invitation, then opens the session. */
export function SessionInvitePage({ token }: { token: string }) {
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    api<{ sessionId: string; workspaceId: number }>(`/df/api/session-invites/${encodeURIComponent(token)}/accept`, { method: 'POST' })
      .then(async (r) => {
        // The session is read in its own workspace: enter it first when the person may and is elsewhere.
        const auth = currentAuth();
        const inSession = auth && auth.workspaceId !== r.workspaceId ? (await api<{ id: number }[]>('/api/v1/workspaces/accessible')).some((w) => w.id === r.workspaceId) : false;
        if (inSession) {
          await switchWorkspace(r.workspaceId);
          await qc.resetQueries();
        }
        navigate(`/sessions/${r.sessionId}`, { replace: true });
      })
      .catch(setError);
  }, [token]);
  return (
    <section>
      <h1>Joining a shared session</h1>
      {error ? (
        <>
          <p class="error" role="alert">
            {messageOf(error)}
          </p>
          <Link href="/devices">Go to the devices</Link>
        </>
      ) : (
        <Loading label="Accepting the invitation…" />
      )}
    </section>
  );
}
