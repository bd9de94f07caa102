import { useEffect, useRef, useState } from 'preact/hooks';
import { markOnce, OPEN_MARKS } from './open-marks';
import { openViewerSocket } from './viewer-socket';

export interface Viewer {
  userId: number;
  name: string;
  access: 'view' | 'control';
  connectedAt: string;
  connections: number;
}

export type Action =
  | { action: 'tap' | 'longPress'; x: number; y: number; durationMs?: number }
  | { action: 'swipe'; x1: number; y1: number; x2: number; y2: number; durationMs?: number }
  | { action: 'text'; text: string }
  | { action: 'key'; key: string }
  | { action: 'home' | 'back' }
  | { action: 'rotate'; orientation: 'portrait' | 'landscape' }
  | { action: 'openUrl'; url: string };

export interface Live {
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
const REMOVAL_CODES = new Set(['SESSION_ACCESS_WITHDRAWN', 'INVITATION_REVOKED']);

/**
 * The viewer socket (`/df/ws/sessions/{id}`): JPEG frames drawn on a canvas as they come, presence,
 * and inputs sent as `{type: "input", id, action}` answered by `ack` or `error`.
 */
export function useLiveScreen(sessionId: string, canvas: { current: HTMLCanvasElement | null }) {
  const [live, setLive] = useState<Live>({ state: 'connecting', canControl: false, access: null, screen: null, viewers: [], ended: null, error: null, removed: null, frames: 0 });
  const socket = useRef<WebSocket | null>(null);
  const pending = useRef(new Map<string, { resolve: () => void; reject: (e: Error) => void }>());
  const nextId = useRef(1);
  /** The newest frame decoded before the canvas was there (the page still loading the session): drawn once it is. */
  const held = useRef<ImageBitmap | null>(null);
  const frameCount = useRef(0);

  /** Draws a decoded frame; keeps it for later when there is no canvas yet. */
  const paint = (bitmap: ImageBitmap) => {
    const c = canvas.current;
    if (!c) {
      held.current?.close();
      held.current = bitmap;
      return;
    }
    // A newer frame than the one that waited: that one is stale now.
    if (held.current && held.current !== bitmap) {
      held.current.close();
      held.current = null;
    }
    if (c.width !== bitmap.width || c.height !== bitmap.height) {
      c.width = bitmap.width;
      c.height = bitmap.height;
    }
    c.getContext('2d')!.drawImage(bitmap, 0, 0);
    bitmap.close();
    frameCount.current += 1;
    c.dataset.frames = String(frameCount.current);
    if (frameCount.current === 1) {
      requestAnimationFrame(() => markOnce(OPEN_MARKS.firstPaint));
      setLive((l) => ({ ...l, state: 'live', frames: 1 }));
    }
  };

  // The canvas comes with the session's record, often after the first frame: draw what waited for it.
  useEffect(() => {
    if (held.current && canvas.current) {
      const bitmap = held.current;
      held.current = null;
      paint(bitmap);
    }
  });

  useEffect(() => {
    const ws = openViewerSocket(sessionId, 'blob');
    if (!ws) return;
    socket.current = ws;
    frameCount.current = 0;
    let drawing = Promise.resolve();
    ws.onopen = () => markOnce(OPEN_MARKS.socketOpen);
    ws.onmessage = (event) => {
      if (typeof event.data !== 'string') {
        markOnce(OPEN_MARKS.firstFrame);
        const blob = event.data as Blob;
        // Frames are drawn in order; a decode never overlaps the next one.
        drawing = drawing.then(async () => paint(await createImageBitmap(blob)));
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
      held.current?.close();
      held.current = null;
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
