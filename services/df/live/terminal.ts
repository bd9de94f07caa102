import { StringDecoder } from 'node:string_decoder';
import type { RawData, WebSocket } from 'ws';
import type { SessionRecord } from '#projections/df-sessions/index.js';
import type { DebugService } from '../debug/index.js';

/** A terminal on the session's device, carried by a viewer socket. */
export interface Terminal {
  input(data: string): void;
  resize(cols: number, rows: number): void;
  close(): void;
}

/** Unsent terminal output above which the device's output is paused. */
const TERMINAL_HIGH_WATER = 1024 * 1024;

/**
 * Opens an interactive shell on the device (the agent runs it in a pseudo-terminal) and joins it to
 * the viewer socket: output as `terminal.output` messages (UTF-8 text, split only between
 * characters), input and resizes to the agent; `terminal.closed` when it ends.
 */
export async function openTerminal(debug: DebugService, session: SessionRecord, userId: number, socket: WebSocket, size: { cols: number; rows: number }, onClosed: () => void): Promise<Terminal> {
  let ended = false;
  const end = (reason: string) => {
    if (ended) return;
    ended = true;
    onClosed();
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ type: 'terminal.closed', reason }));
  };
  let upstreamRef: WebSocket | null = null;
  const { upstream, untrack } = await debug.connect(session, userId, 'adb', `/terminal?cols=${size.cols}&rows=${size.rows}`, (_code, reason) => {
    end(reason);
    upstreamRef?.terminate();
  });
  upstreamRef = upstream;
  const decoder = new StringDecoder('utf8');
  const sent = () => {
    if (upstream.isPaused && socket.bufferedAmount < TERMINAL_HIGH_WATER / 2) upstream.resume();
  };
  upstream.on('message', (data: RawData) => {
    const text = decoder.write(Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data));
    if (!text || socket.readyState !== socket.OPEN) return;
    socket.send(JSON.stringify({ type: 'terminal.output', data: text }), sent);
    if (socket.bufferedAmount > TERMINAL_HIGH_WATER) upstream.pause();
  });
  upstream.on('close', (_code: number, reason: Buffer) => {
    untrack();
    end(reason.toString() || 'closed');
  });
  upstream.on('error', () => {
    untrack();
    end('the device\'s host closed the terminal');
  });
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ type: 'terminal.opened', cols: size.cols, rows: size.rows }));
  return {
    input: (data) => {
      if (upstream.readyState === upstream.OPEN) upstream.send(Buffer.from(data, 'utf8'), { binary: true });
    },
    resize: (cols, rows) => {
      if (upstream.readyState === upstream.OPEN) upstream.send(JSON.stringify({ type: 'resize', cols, rows }));
    },
    close: () => {
      if (upstream.readyState === upstream.OPEN || upstream.readyState === upstream.CONNECTING) upstream.close(1000, 'closed by the viewer');
    },
  };
}
