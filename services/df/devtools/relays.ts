import { WebSocket } from 'ws';
import { sessionById } from '#projections/df-sessions/index.js';
import type { Sql } from '#shared/db/index.js';

/** How often sessions with open CDP sockets are checked, so an ended session's sockets close even when its host is gone. */
const SWEEP_MS = 5_000;

/** One relayed CDP socket: the client's side (once accepted) and the device's. */
export interface Relay {
  client: WebSocket | null;
  upstream: WebSocket;
}

function closeRelay(r: Relay, code: number, reason: string): void {
  if (r.client && r.client.readyState === WebSocket.OPEN) r.client.close(code, reason);
  else r.client?.terminate();
  r.upstream.terminate();
}

/** Open relays by session, closed when the session ends or the server stops. */
export class RelayTracker {
  private readonly open = new Map<string, Set<Relay>>();
  private sweeper: NodeJS.Timeout | null = null;

  constructor(private readonly db: Sql) {}

  /** Tracks a relay of the session; the answer forgets it again. */
  track(sessionId: string, r: Relay): () => void {
    let set = this.open.get(sessionId);
    if (!set) this.open.set(sessionId, (set = new Set()));
    set.add(r);
    this.sweeper ??= setInterval(() => void this.sweep(), SWEEP_MS);
    this.sweeper.unref();
    return () => {
      set.delete(r);
      if (set.size === 0 && this.open.get(sessionId) === set) this.open.delete(sessionId);
    };
  }

  /** Closes every relay (the server stops). */
  closeAll(reason: string): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    for (const relays of this.open.values()) for (const r of relays) closeRelay(r, 1001, reason);
    this.open.clear();
  }

  private async sweep(): Promise<void> {
    for (const [sessionId, relays] of this.open) {
      const session = await sessionById(this.db, sessionId).catch(() => undefined);
      if (session === undefined || session?.status === 'active') continue;
      for (const r of relays) closeRelay(r, 1001, 'session ended');
      this.open.delete(sessionId);
    }
    if (this.open.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = null;
    }
  }
}
