import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Device, Session as SessionInfo } from '@qa-platform/client';
import { api, ApiError, currentAuth, download, switchWorkspace } from '../api';
import { Link, navigate } from '../router';
import { useSession } from '../session-context';
import { ErrorNote, formatTime, Loading, messageOf } from '../ui';
import { AUDITED_PLATFORMS, AuditButton, AuditStatus, useSessionAudit, type SessionAudit } from './session-audit';
import { accessText, EndSessionButton } from './session-end';
import { InspectOverlay, InspectPanel, useInspector, type Inspector } from './session-inspect';
import { useScreenBoxHeight } from './session-screen-size';
import { useLiveScreen, type Action, type Live as LiveState } from './session-live';
import { Sharing } from './session-sharing';
import { SessionPanes, type Pane } from './session-panes';
import { RecordingButtons, RecordingIndicator } from './session-replay';

/** What the API answers a reader of the workspace who may see the session's record but not its screen or data. */
export const CONTENT_FORBIDDEN_TEXT = "Only the session's owner, the people it is shared with and reviewers can see its screen.";

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
  // The device's platform and capabilities: the host reports them once it has prepared the device, so
  // they are asked again while the session runs.
  const device = useQuery({
    queryKey: ['session-device', session.data?.deviceId],
    queryFn: () => api<Pick<Device, 'platform' | 'capabilities'>>(`/df/api/devices/${session.data!.deviceId}`),
    enabled: Boolean(session.data?.deviceId),
    refetchInterval: session.data?.status === 'active' ? 5_000 : false,
  }).data;
  const platform = device?.platform;
  const viewOnly = device?.capabilities?.input === 'none';
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
  const inspector = useInspector(id);
  const audit = useSessionAudit(id, session.data?.name || session.data?.deviceName || 'Session');
  // Inputs go one after another, each after the previous one's answer, so typed text keeps its order.
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const act = (a: Action) => {
    setActionError(null);
    const sent = queue.current.then(() => send(a));
    queue.current = sent.catch(() => undefined);
    return sent.catch(setActionError);
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

  return (
    <section class="session">
      <div class="title-row">
        <h1>{s.name || s.deviceName}</h1>
        <span class={`badge ${live.ended ? 'ended' : s.status}`}>{live.ended ? 'ended' : s.status}</span>
        <Outcome session={s} />
        <span class="muted small">
          {s.deviceName} · started {formatTime(s.startedAt)} · {noContent && !ended ? 'its record only' : accessText(ended, live.access)}
        </span>
        <RecordingIndicator id={id} />
        {control ? <Link href={`/sessions/${id}/debug`}>Debug</Link> : null}
        {ended && content.isSuccess && can('AUDIT_READ') ? <EvidenceButton id={id} onError={setActionError} /> : null}
      </div>
      <div class="session-layout">
        <div class="screen-col">
          {viewOnly && !ended ? (
            <p class="view-only" role="status">
              This device is view-only: {device?.capabilities?.reason ?? 'it takes no input'}
            </p>
          ) : null}
          {control ? (
            <DeviceToolbar
              id={id}
              act={act}
              onError={setActionError}
              inspector={inspector}
              audit={audits ? audit : null}
              onEnded={() => qc.invalidateQueries({ queryKey: ['session', id] })}
            />
          ) : null}
          {noContent ? (
            <p class="content-forbidden" role="status">
              {content.error instanceof ApiError && content.error.code === 'SESSION_ACCESS_WITHDRAWN' ? "The session's owner disconnected you from this session." : CONTENT_FORBIDDEN_TEXT}
            </p>
          ) : null}
          <AuditStatus audit={audit} />
          <LiveScreen canvas={canvas} live={live} act={act} control={control} inspector={inspector} hidden={noContent} size={s.screen} />
          {control ? <TypeBar act={act} /> : null}
          {noContent ? null : <ErrorNote error={actionError ?? live.error} />}
        </div>
        <aside class="side">
          {inspector.on ? <InspectPanel inspector={inspector} /> : null}
          <SessionPanes panes={panes} id={id} platform={platform} control={control} viewers={live.viewers.length}>
            <Sharing id={id} viewers={live.viewers} me={me?.id} mayShare={mayShare} active={s.status === 'active'} />
          </SessionPanes>
        </aside>
      </div>
    </section>
  );
}

/** The controls over the device for whoever drives the session; `audit` when an audit may run. */
function DeviceToolbar(props: { id: string; act: (a: Action) => Promise<unknown>; onError: (err: unknown) => void; inspector: Inspector; audit: SessionAudit | null; onEnded: () => Promise<unknown> }) {
  const { id, act, inspector } = props;
  const [orientation, setOrientation] = useState<'portrait' | 'landscape'>('portrait');
  return (
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
      <button type="button" onClick={() => download(`/df/api/sessions/${id}/screenshot`, `screenshot-${id}.png`).catch(props.onError)}>
        Screenshot
      </button>
      <RecordingButtons id={id} />
      <button type="button" aria-pressed={inspector.on} onClick={inspector.toggle}>
        Inspect
      </button>
      {props.audit ? <AuditButton audit={props.audit} /> : null}
      <EndSessionButton id={id} onEnded={props.onEnded} />
    </div>
  );
}

/**
 * The live screen: frames on a canvas, which — for whoever controls the device — taps, long-presses
 * and swipes with the pointer and types while focused; the inspector's overlay and the screen's notes.
 */
function LiveScreen(props: {
  canvas: { current: HTMLCanvasElement | null };
  live: LiveState;
  act: (a: Action) => Promise<unknown>;
  control: boolean;
  inspector: Inspector;
  hidden: boolean;
  size: SessionInfo['screen'];
}) {
  const { canvas, live, act, control, inspector } = props;
  const screenBox = useScreenBoxHeight();
  const pointer = useRef<{ x: number; y: number; at: number; id: number } | null>(null);
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
  return (
    <div class="screen-frame" hidden={props.hidden} ref={screenBox.ref} style={screenBox.height ? { height: `${screenBox.height}px` } : undefined}>
      <canvas
        ref={canvas}
        class={control ? 'screen controllable' : 'screen'}
        tabIndex={control ? 0 : -1}
        aria-label={control ? 'Device screen: click to tap, hold to long-press, drag to swipe; type while focused' : 'Device screen (view only)'}
        role="img"
        width={props.size?.width ?? 360}
        height={props.size?.height ?? 640}
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
  );
}

/**
 * The session's signed evidence (its record, timeline, command log, artifacts by SHA-256, chained events),
 * for whoever may see its content and holds AUDIT_READ, once it ended: `dfctl audit verify` checks it.
 */
function EvidenceButton({ id, onError }: { id: string; onError: (err: unknown) => void }) {
  const [busy, setBusy] = useState(false);
  const save = () => {
    setBusy(true);
    download(`/df/api/sessions/${id}/evidence`, `session-evidence-${id}.json`)
      .catch(onError)
      .finally(() => setBusy(false));
  };
  return (
    <button type="button" disabled={busy} title="A signed file that dfctl audit verify checks offline" onClick={save}>
      {busy ? 'Preparing evidence…' : 'Download evidence'}
    </button>
  );
}

/** The test outcome a runner set, its reason as the badge's description. */
function Outcome({ session: s }: { session: SessionInfo }) {
  if (!s.outcome) return null;
  return (
    <>
      <span class={`badge outcome-${s.outcome}`}>{s.outcome === 'passed' ? 'Test passed' : 'Test failed'}</span>
      {s.outcomeReason ? (
        <span class="muted small outcome-reason" title={s.outcomeReason}>
          {s.outcomeReason}
        </span>
      ) : null}
    </>
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
