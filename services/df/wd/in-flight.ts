/**
 * The WebDriver commands this replica is relaying now, counted per session. A client waiting on a long
 * command (an implicit wait, a script that runs for minutes) is a live holder of its session although it
 * sends nothing meanwhile: the hub gives these sessions to the watchdog's holders as present
 * (`SessionHolders.addSource`), as the screen hub gives its viewers' sessions.
 */
export class CommandsInFlight {
  private readonly counts = new Map<string, number>();

  /** Runs `send` counted as a command in flight of the session until it settles. */
  async around<T>(sessionId: string, send: () => Promise<T>): Promise<T> {
    this.counts.set(sessionId, (this.counts.get(sessionId) ?? 0) + 1);
    try {
      return await send();
    } finally {
      const left = (this.counts.get(sessionId) ?? 1) - 1;
      if (left > 0) this.counts.set(sessionId, left);
      else this.counts.delete(sessionId);
    }
  }

  /** The sessions with a command in flight now. */
  sessions(): Iterable<string> {
    return this.counts.keys();
  }
}
