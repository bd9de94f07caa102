import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorNote } from '../ui';
import type { TerminalView } from './debug-xterm';
import { openViewerSocket } from './viewer-socket';

type TerminalState =
  | { kind: 'idle' }
  | { kind: 'opening' }
  | { kind: 'open' }
  | { kind: 'refused'; code: string; message: string }
  | { kind: 'closed'; reason: string };

/** The limits the viewer socket accepts for `terminal.open` and `terminal.resize`. */
const clampSize = (cols: number, rows: number) => ({ cols: Math.min(Math.max(cols, 10), 500), rows: Math.min(Math.max(rows, 5), 300) });
/** `terminal.input` carries at most 16 384 characters; a large paste goes in pieces, in order. */
const INPUT_PIECE = 8_192;

/**
 * What the socket's and xterm's handlers share with the component. They outlive any one render, so
 * they read the state through `current`, not through the render's own value.
 */
interface TerminalLink {
  current: { current: TerminalState };
  setState: (next: TerminalState) => void;
  setNotice: (text: string | null) => void;
  view: { current: TerminalView | null };
  socket: { current: WebSocket | null };
  helloSeen: { current: boolean };
  send: (message: Record<string, unknown>) => void;
}

const sendOpen = (t: TerminalLink) => {
  const v = t.view.current!;
  t.send({ type: 'terminal.open', ...clampSize(v.cols, v.rows) });
};

/** Opens the viewer socket and follows the terminal's messages on it. */
function connect(sessionId: string, t: TerminalLink) {
  // The socket also carries the screen's frames; this page has no use for them.
  const ws = openViewerSocket(sessionId, 'arraybuffer');
  if (!ws) return;
  t.socket.current = ws;
  t.helloSeen.current = false;
  let lastError: { code: string; message: string } | null = null;
  ws.onmessage = (event) => {
    if (typeof event.data !== 'string') return;
    const msg = JSON.parse(event.data) as { type: string; [k: string]: unknown };
    switch (msg.type) {
      case 'hello':
        t.helloSeen.current = true;
        if (t.current.current.kind === 'opening') sendOpen(t);
        break;
      case 'terminal.opened':
        t.setState({ kind: 'open' });
        t.view.current?.focus();
        break;
      case 'terminal.output':
        t.view.current?.write(String(msg.data ?? ''));
        break;
      case 'terminal.closed':
        t.setState({ kind: 'closed', reason: String(msg.reason || 'closed') });
        break;
      case 'ended':
        t.setState({ kind: 'closed', reason: `the session ended (${String(msg.reason ?? 'ended')})` });
        break;
      case 'error': {
        const refusal = { code: String(msg.code ?? 'ERROR'), message: String(msg.message ?? msg.code ?? 'Refused') };
        lastError = refusal;
        if (t.current.current.kind === 'opening') t.setState({ kind: 'refused', ...refusal });
        else t.setNotice(refusal.message);
        break;
      }
    }
  };
  ws.onclose = (event) => {
    if (t.socket.current === ws) t.socket.current = null;
    const kind = t.current.current.kind;
    if (kind === 'opening') t.setState({ kind: 'refused', ...(lastError ?? { code: `CLOSED_${event.code}`, message: event.reason || `The connection closed (${event.code})` }) });
    else if (kind === 'open') t.setState({ kind: 'closed', reason: event.reason || `the connection closed (${event.code})` });
  };
}

/** Opens (or reopens) the terminal: xterm.js loaded into `box` the first time, then `terminal.open` sent. */
async function openTerminal(sessionId: string, t: TerminalLink, box: { current: HTMLDivElement | null }) {
  t.setNotice(null);
  t.setState({ kind: 'opening' });
  try {
    if (!t.view.current) {
      const { createTerminal } = await import('./debug-xterm');
      if (!box.current) return;
      t.view.current = createTerminal(box.current, {
        onData: (data) => {
          if (t.current.current.kind !== 'open') return;
          for (let at = 0; at < data.length; at += INPUT_PIECE) t.send({ type: 'terminal.input', data: data.slice(at, at + INPUT_PIECE) });
        },
        onResize: (cols, rows) => {
          if (t.current.current.kind === 'open') t.send({ type: 'terminal.resize', ...clampSize(cols, rows) });
        },
      });
    } else t.view.current.reset();
  } catch (err) {
    t.setState({ kind: 'refused', code: 'LOAD_FAILED', message: `The terminal could not be loaded: ${err instanceof Error ? err.message : String(err)}` });
    return;
  }
  const ws = t.socket.current;
  if (ws && ws.readyState === WebSocket.OPEN && t.helloSeen.current) sendOpen(t);
  else if (!ws || ws.readyState >= WebSocket.CLOSING) connect(sessionId, t);
  // A socket still connecting sends `terminal.open` on its `hello`.
}

/** The terminal's state, its socket and xterm view, for the session `sessionId`; the grid lives in `box`. */
function useTerminal(sessionId: string, adbGranted: boolean, box: { current: HTMLDivElement | null }) {
  const [state, setStateValue] = useState<TerminalState>({ kind: 'idle' });
  const [notice, setNotice] = useState<string | null>(null);
  const current = useRef<TerminalState>(state);
  const view = useRef<TerminalView | null>(null);
  const socket = useRef<WebSocket | null>(null);
  const helloSeen = useRef(false);
  const t: TerminalLink = {
    current,
    setState: (next) => {
      current.current = next;
      setStateValue(next);
    },
    setNotice,
    view,
    socket,
    helloSeen,
    send: (message) => {
      const ws = socket.current;
      if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
    },
  };

  // The grid follows its box (window resizes, the layout's columns); xterm reports a new size.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let frame = 0;
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => view.current?.fit());
    });
    observer.observe(el);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
    };
  }, []);

  // Access granted after a refusal (here or in the protocols above): the terminal may be opened again.
  useEffect(() => {
    if (adbGranted && current.current.kind === 'refused' && (current.current as { code: string }).code === 'DEBUG_NOT_GRANTED') t.setState({ kind: 'idle' });
  }, [adbGranted]);

  useEffect(
    () => () => {
      const ws = socket.current;
      socket.current = null;
      if (ws) {
        ws.onclose = null;
        ws.close(1000);
      }
      view.current?.dispose();
      view.current = null;
    },
    [sessionId],
  );
  return { state, notice, send: t.send, open: () => openTerminal(sessionId, t, box) };
}

/**
 * A shell on the Android device (adb), carried by a viewer socket of the page's own
 * (`/df/ws/sessions/{id}`): `terminal.open` with the grid's size, output written to xterm.js as it
 * comes, typed keys sent as `terminal.input`, the box's size followed with `terminal.resize`.
 * xterm.js is imported only when the person opens the terminal.
 */
export function DebugTerminal(props: { sessionId: string; adbGranted: boolean; adbAvailable: boolean; requestAdb: () => Promise<boolean> }) {
  const box = useRef<HTMLDivElement | null>(null);
  const { state, notice, send, open } = useTerminal(props.sessionId, props.adbGranted, box);
  const notGranted = state.kind === 'refused' && state.code === 'DEBUG_NOT_GRANTED';
  return (
    <section class="card terminal-card" aria-labelledby="debug-terminal">
      <div class="card-head">
        <h2 id="debug-terminal">Terminal</h2>
        {state.kind === 'open' ? (
          <button type="button" onClick={() => send({ type: 'terminal.close' })}>
            Close the terminal
          </button>
        ) : null}
      </div>
      <p class="muted small">
        A shell on the device over adb. Tab completes in the shell; Shift+Tab leaves the terminal.
      </p>
      <div class="terminal-status" role="status" aria-live="polite">
        {state.kind === 'idle' ? (
          <p>{props.adbGranted ? 'The terminal is not open.' : 'The terminal needs adb access.'}</p>
        ) : null}
        {state.kind === 'opening' ? <p>Opening a shell on the device…</p> : null}
        {state.kind === 'closed' ? <p class="terminal-closed">The terminal is closed: {state.reason}.</p> : null}
      </div>
      {state.kind === 'refused' ? (
        <div class="error" role="alert">
          {notGranted ? <p>The terminal needs adb access, which you have not been granted yet.</p> : null}
          <p class={notGranted ? 'small' : undefined}>{state.message}</p>
        </div>
      ) : null}
      <div class="row">
        {state.kind === 'idle' ? (
          <button type="button" class="primary" onClick={() => void open()}>
            Open the terminal
          </button>
        ) : null}
        {notGranted && props.adbAvailable && !props.adbGranted ? (
          <button
            type="button"
            class="primary"
            onClick={async () => {
              if (await props.requestAdb()) await open();
            }}
          >
            Request adb access and open
          </button>
        ) : null}
        {state.kind === 'refused' ? (
          <button type="button" onClick={() => void open()}>
            Try again
          </button>
        ) : null}
        {state.kind === 'closed' ? (
          <button type="button" class="primary" onClick={() => void open()}>
            Reopen
          </button>
        ) : null}
      </div>
      <ErrorNote error={notice ? new Error(notice) : null} />
      <div class={`terminal-box ${state.kind === 'open' || state.kind === 'opening' ? 'live' : 'inactive'}`} ref={box} />
    </section>
  );
}
