import type { Duplex } from 'node:stream';
import { WebSocket, type RawData } from 'ws';

// A side whose peer has this much unsent data stops being read until the peer drains below half of
// it: TCP back-pressure then reaches the sender, so a relay never buffers without bound.
export const HIGH_WATER_BYTES = 4 * 1024 * 1024;
const LOW_WATER_BYTES = HIGH_WATER_BYTES / 2;
/** Bytes a relayed stream may hold unwritten before its WebSocket stops being read. */
const STREAM_HIGH_WATER_BYTES = 1024 * 1024;
/** How long a stream may take to finish after its WebSocket closed. */
const STREAM_END_GRACE_MS = 5_000;
/** CDP messages carry screenshots and heap snapshots: well above `ws`'s default limit. */
export const MAX_CDP_PAYLOAD_BYTES = 256 * 1024 * 1024;

/** Close codes that may be sent in a close frame (1005 and 1006 only describe what happened). */
const sendableCode = (code: number) => (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999);

/**
 * Joins two open WebSockets: messages pass both ways with their type; a side stops being read while
 * its peer has more than `HIGH_WATER_BYTES` unsent; a close (code and reason) or failure of one side
 * closes the other. `onClose` runs once, when the first side goes.
 */
export function relayWebSockets(a: WebSocket, b: WebSocket, onClose?: () => void): void {
  let closed = false;
  const done = () => {
    if (closed) return;
    closed = true;
    onClose?.();
  };
  const relay = (from: WebSocket, to: WebSocket) => {
    const drained = () => {
      if (from.isPaused && to.bufferedAmount <= LOW_WATER_BYTES && from.readyState === WebSocket.OPEN) from.resume();
    };
    from.on('message', (data: RawData, isBinary: boolean) => {
      if (to.readyState !== WebSocket.OPEN) return;
      to.send(data, { binary: isBinary }, drained);
      if (to.bufferedAmount > HIGH_WATER_BYTES) from.pause();
    });
    from.on('close', (code: number, reason: Buffer) => {
      done();
      if (to.readyState === WebSocket.CLOSED || to.readyState === WebSocket.CLOSING) return;
      if (code === 1005) to.close();
      else if (sendableCode(code)) to.close(code, reason);
      else to.terminate();
    });
    from.on('error', () => {
      done();
      to.terminate();
    });
  };
  relay(a, b);
  relay(b, a);
}

/**
 * Joins an open WebSocket and a byte stream (a TCP socket, a device service): binary messages are
 * written to the stream, what the stream reads is sent as binary messages. Back-pressure both ways:
 * the WebSocket stops being read while the stream holds more than 1 MiB unwritten (until `drain`), the stream stops
 * being read while the WebSocket has more than `HIGH_WATER_BYTES` unsent. The end of either side ends
 * the other (the stream is ended, so what it was given is still delivered); `onClose` runs once.
 */
export function relayWebSocketToStream(
  ws: WebSocket,
  stream: Duplex,
  onClose?: (why: 'socket' | 'stream') => void,
  /** The close code and reason for the WebSocket when the stream ends (default 1000, "stream closed"). */
  closeFor?: () => Promise<{ code: number; reason: string }>,
): void {
  let closed = false;
  const done = (why: 'socket' | 'stream') => {
    if (closed) return;
    closed = true;
    onClose?.(why);
  };
  ws.on('message', (data: RawData) => {
    const chunk = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    if (stream.destroyed || stream.writableEnded) return;
    stream.write(chunk);
    // A socket's own high-water mark (16 KiB) would pause the WebSocket after every message; a
    // megabyte keeps bytes flowing and still bounds what waits here.
    if (stream.writableLength > STREAM_HIGH_WATER_BYTES && !ws.isPaused) ws.pause();
  });
  stream.on('drain', () => {
    if (ws.isPaused && ws.readyState === WebSocket.OPEN) ws.resume();
  });
  const sent = () => {
    if (stream.isPaused() && ws.bufferedAmount <= LOW_WATER_BYTES && ws.readyState === WebSocket.OPEN) stream.resume();
  };
  stream.on('data', (chunk: Buffer) => {
    if (ws.readyState !== WebSocket.OPEN) return;
    ws.send(chunk, { binary: true }, sent);
    if (ws.bufferedAmount > HIGH_WATER_BYTES) stream.pause();
  });
  const streamGone = () => {
    if (closed) return;
    done('stream');
    if (ws.readyState === WebSocket.CONNECTING) {
      ws.terminate();
      return;
    }
    void (closeFor?.() ?? Promise.resolve({ code: 1000, reason: 'stream closed' }))
      .catch(() => ({ code: 1000, reason: 'stream closed' }))
      .then(({ code, reason }) => {
        if (ws.readyState === WebSocket.OPEN) ws.close(code, reason);
      });
  };
  stream.once('end', streamGone);
  stream.once('close', streamGone);
  stream.on('error', () => {
    done('stream');
    if (ws.readyState === WebSocket.OPEN) ws.close(1011, 'stream failed');
    else ws.terminate();
  });
  ws.on('close', () => {
    done('socket');
    if (stream.destroyed) return;
    // What was written still reaches the other end; a stream that never finishes is dropped.
    stream.end();
    setTimeout(() => stream.destroy(), STREAM_END_GRACE_MS).unref();
  });
  ws.on('error', () => {
    done('socket');
    stream.destroy();
  });
}

/**
 * Resolves once a WebSocket the relay opened towards an agent is open; rejects with `refused(status,
 * body)` when the agent answered the upgrade with an HTTP response (its body read up to 16 KiB), or
 * with `unreachable(err)` when the connection failed.
 */
export function upstreamOpened(upstream: WebSocket, refused: (status: number, body: string) => Error, unreachable: (err: Error) => Error): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    upstream.once('unexpected-response', (_r, answer) => {
      let body = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk: string) => {
        if (body.length < 16_384) body += chunk;
      });
      answer.on('end', () => reject(refused(answer.statusCode ?? 502, body)));
      answer.on('error', () => reject(refused(answer.statusCode ?? 502, body)));
    });
    upstream.once('error', (err) => reject(unreachable(err)));
    upstream.once('open', () => resolve());
  });
}
