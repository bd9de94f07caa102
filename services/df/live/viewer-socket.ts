import type { WebSocket } from 'ws';
import type { Frame } from '#shared/wire/index.js';
import { qaMetrics } from '#shared/metrics/index.js';

// Two frames may be on their way to a viewer; a newer frame replaces one that waits. A viewer that
// reads slowly therefore sees fewer, fresher frames, and memory per viewer stays bounded.
const MAX_IN_FLIGHT = 2;
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** Sends frames to one WebSocket without ever queueing more than a few of them. */
export class FrameSender {
  framesSent = 0;
  framesDropped = 0;
  private inFlight = 0;
  private pending: Frame | null = null;

  constructor(private readonly socket: WebSocket) {}

  /** Sends now, or keeps the frame as the one to send next (dropping the one it replaces). */
  offer(frame: Frame): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    if (this.inFlight >= MAX_IN_FLIGHT || this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      if (this.pending) {
        this.framesDropped++;
        qaMetrics.viewerFrames.inc({ outcome: 'dropped' });
      }
      this.pending = frame;
      return;
    }
    this.transmit(frame);
  }

  private transmit(frame: Frame): void {
    this.inFlight++;
    this.socket.send(JSON.stringify({ type: 'frame', seq: frame.seq, capturedAt: frame.capturedAt, width: frame.width, height: frame.height }));
    this.socket.send(frame.jpeg, { binary: true }, () => {
      this.inFlight--;
      this.framesSent++;
      qaMetrics.viewerFrames.inc({ outcome: 'sent' });
      const next = this.pending;
      if (next && this.socket.readyState === this.socket.OPEN && this.inFlight < MAX_IN_FLIGHT) {
        this.pending = null;
        this.transmit(next);
      }
    });
  }
}
