import { useEffect, useRef, useState } from 'preact/hooks';
import { currentAuth } from '../api';
import { ErrorNote } from '../ui';
import type { TerminalView } from './debug-xterm';

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
 * A shell on the Android device (adb), carried by a viewer socket of the page's own
 * (`/df/ws/sessions/{id}`): `terminal.open` with the grid's size, output written to xterm.js as it
 * comes, typed keys sent as `terminal.input`, the box's size followed with `terminal.resize`.
 * xterm.js is imported only when the person opens the terminal.
 */
export function DebugTerminal(props: { sessionId: string; adbGranted: boolean; adbAvailable: boolean; requestAdb: () => Promise<boolean> }) {
  const { sessionId } = props;
  const [state, setStateValue] = useState<TerminalState>({ kind: 'idle' });
  const [notice, setNotice] = useState<string | null>(null);
  const box = useRef<HTMLDivElement | null>(null);
  const view = useRef<TerminalView | null>(null);
  const socket = useRef<WebSocket | null>(null);
  const helloSeen = useRef(false);
  // Handlers of the socket and xterm read the state through a ref: they outlive any one render.
  const current = useRef<TerminalState>(state);
  const setState = (next: TerminalState) => {
    current.current = next;
    setStateValue(next);
  };

  const send = (message: Record<string, unknown>) => {
    const ws = socket.current;
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  };
  const sendOpen = () => {
    const t = view.current!;
    send({ type: 'terminal.open', ...clampSize(t.cols, t.rows) });
  };

  const connect = () => {
    const auth = currentAuth();
    if (!auth) return;
    const url = new URL(`/df/ws/sessions/${encodeURIComponent(sessionId)}`, location.href);
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('access_token', auth.token);
    if (auth.workspaceId) url.searchParams.set('workspaceId', String(auth.workspaceId));
    const ws = new WebSocket(url);
    // The socket also carries the screen's frames; this page has no use for them.
    ws.binaryType = 'arraybuffer';
    socket.current = ws;
    helloSeen.current = false;
    let lastError: { code: string; message: string } | null = null;
    ws.onmessage = (event) => {
      if (typeof event.data !== 'string') return;
      const msg = JSON.parse(event.data) as { type: string; [k: string]: unknown };
      switch (msg.type) {
        case 'hello':
          helloSeen.current = true;
          if (current.current.kind === 'opening') sendOpen();
          break;
        case 'terminal.opened':
          setState({ kind: 'open' });
          view.current?.focus();
          break;
        case 'terminal.output':
          view.current?.write(String(msg.data ?? ''));
          break;
        case 'terminal.closed':
          setState({ kind: 'closed', reason: String(msg.reason || 'closed') });
          break;
        case 'ended':
          setState({ kind: 'closed', reason: `the session ended (${String(msg.reason ?? 'ended')})` });
          break;
        case 'error': {
          const refusal = { code: String(msg.code ?? 'ERROR'), message: String(msg.message ?? msg.code ?? 'Refused') };
          lastError = refusal;
          if (current.current.kind === 'opening') setState({ kind: 'refused', ...refusal });
          else setNotice(refusal.message);
          break;
        }
      }
    };
    ws.onclose = (event) => {
      if (socket.current === ws) socket.current = null;
      const kind = current.current.kind;
      if (kind === 'opening') setState({ kind: 'refused', ...(lastError ?? { code: `CLOSED_${event.code}`, message: event.reason || `The connection closed (${event.code})` }) });
      else if (kind === 'open') setState({ kind: 'closed', reason: event.reason || `the connection closed (${event.code})` });
    };
  };

  const open = async () => {
    setNotice(null);
    setState({ kind: 'opening' });
    try {
      if (!view.current) {
        const { createTerminal } = await import('./debug-xterm');
        if (!box.current) return;
        view.current = createTerminal(box.current, {
          onData: (data) => {
            if (current.current.kind !== 'open') return;
            for (let at = 0; at < data.length; at += INPUT_PIECE) send({ type: 'terminal.input', data: data.slice(at, at + INPUT_PIECE) });
          },
          onResize: (cols, rows) => {
            if (current.current.kind === 'open') send({ type: 'terminal.resize', ...clampSize(cols, rows) });
          },
        });
      } else view.current.reset();
    } catch (err) {
      setState({ kind: 'refused', code: 'LOAD_FAILED', message: `The terminal could not be loaded: ${err instanceof Error ? err.message : String(err)}` });
      return;
    }
    const ws = socket.current;
    if (ws && ws.readyState === WebSocket.OPEN && helloSeen.current) sendOpen();
    else if (!ws || ws.readyState >= WebSocket.CLOSING) connect();
    // A socket still connecting sends `terminal.open` on its `hello`.
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
    if (props.adbGranted && current.current.kind === 'refused' && (current.current as { code: string }).code === 'DEBUG_NOT_GRANTED') setState({ kind: 'idle' });
  }, [props.adbGranted]);

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
