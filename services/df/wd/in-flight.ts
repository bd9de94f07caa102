/**
 * The WebDriver commands this replica relays, per session: those in flight now, and the sessions whose
 * command settled since the watchdog last asked. A client waiting on a long command (an implicit wait, a
 * script that runs for minutes) is a live holder of its session although it sends nothing meanwhile, and
 * a client that sent a command since the last tick is one too, whether or not the command's timeline
 * entry has reached the read model yet (its `lastActivityAt` lags by the log's burst and the
 * projection's catch-up, which a loaded replica can stretch past the watchdog's grace). The hub gives
 * these sessions to the watchdog's holders as present (`SessionHolders.addSource`), as the screen hub
 * gives its viewers' sessions.
 */
export class CommandsInFlight {
  private readonly counts = new Map<string, number>();
  /** Sessions with a command settled since the last `live()`. */
  private readonly settled = new Set<string>();

  /** Runs `send` counted as a command in flight of the session until it settles. */
  async around<T>(sessionId: string, send: () => Promise<T>): Promise<T> {
    this.counts.set(sessionId, (this.counts.get(sessionId) ?? 0) + 1);
    try {
      return await send();
    } finally {
      const left = (this.counts.get(sessionId) ?? 1) - 1;
      if (left > 0) this.counts.set(sessionId, left);
      else this.counts.delete(sessionId);
      this.settled.add(sessionId);
    }
  }

  /**
   * The sessions with a command in flight now or one settled since the last call, which starts the next
   * interval: the watchdog's holders call it once a tick, as they write presences.
   */
  live(): string[] {
    const sessions = new Set([...this.counts.keys(), ...this.settled]);
    this.settled.clear();
    return [...sessions];
  }

  /** Forgets a session that ended (a command of it that settled no longer vouches for it). */
  forget(sessionId: string): void {
    this.settled.delete(sessionId);
  }
}
