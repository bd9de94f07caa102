import { WebSocket } from 'ws';
import { sessionById } from '#projections/df-sessions/index.js';
import type { Sql } from '#shared/db/index.js';
import { OpenByKey } from '#shared/open-by-key.js';

/** How often sessions with open CDP sockets are checked, so an ended session's sockets close even when its host is gone. */
const SWEEP_MS = 5_000;

/** One relayed CDP socket: the client's side (once accepted) and the device's. */
export interface Relay {
  client: WebSocket | null;
  upstream: WebSocket;
}

export function closeRelay(r: Relay, code: number, reason: string): void {
  if (r.client && r.client.readyState === WebSocket.OPEN) r.client.close(code, reason);
  else r.client?.terminate();
  r.upstream.terminate();
}

/** Open relays by session, closed when the session ends (or when the server stops: `closeAll`). */
export function relayRegistry(db: Sql): OpenByKey<Relay> {
  const relays: OpenByKey<Relay> = new OpenByKey<Relay>(SWEEP_MS, async (sessionId, open) => {
    const session = await sessionById(db, sessionId).catch(() => undefined);
    if (session === undefined || session?.status === 'active') return;
    for (const r of open) closeRelay(r, 1001, 'session ended');
    relays.forget(sessionId);
  });
  return relays;
}
