import type { ChromiumProcess } from './chromium.js';

/** One launch of a spare: under way, then its browser (or null when the launch failed). */
interface Slot {
  launching: Promise<ChromiumProcess | null>;
  browser: ChromiumProcess | null;
}

/**
 * The browser a device launches ahead of its next session, so the session does not wait for Chromium
 * to start: a new process on a new, never-used profile directory, with nothing opened in it. It is
 * handed out once (`take`) and never taken back; a spare that dies while it waits is dropped (its
 * profile deleted) and the session that needed it launches its own, as without a spare.
 */
export class SpareBrowser {
  private slot: Slot | null = null;
  private closed = false;

  constructor(
    private readonly launch: () => Promise<ChromiumProcess>,
    private readonly onLaunchFailed: (err: Error) => void,
  ) {}

  /** The spare, once it runs (diagnostics: its pid and profile). */
  get ready(): ChromiumProcess | null {
    const browser = this.slot?.browser ?? null;
    return browser?.running() ? browser : null;
  }

  /** Launches a spare in the background unless one is ready or under way. */
  fill(): void {
    if (this.closed || this.slot) return;
    const slot: Slot = { launching: Promise.resolve(null), browser: null };
    slot.launching = this.launch().then(
      (browser) => {
        slot.browser = browser;
        void browser.exited
          .then(() => {
            // Died unused: dropped, its profile deleted. A spare handed out is its session's to delete.
            if (this.slot !== slot) return;
            this.slot = null;
            return browser.kill();
          })
          .catch(() => undefined);
        return browser;
      },
      (err: Error) => {
        if (this.slot === slot) this.slot = null;
        this.onLaunchFailed(err);
        return null;
      },
    );
    this.slot = slot;
  }

  /**
   * Hands the spare over (waiting for one under way): a running browser no one has used, or null
   * when there is none, its launch failed or it died.
   */
  async take(): Promise<ChromiumProcess | null> {
    const slot = this.slot;
    this.slot = null;
    const browser = slot ? await slot.launching : null;
    if (!browser) return null;
    if (browser.running()) return browser;
    await browser.kill();
    return null;
  }

  /** Stops the spare (one under way too) and launches no more. */
  async close(): Promise<void> {
    this.closed = true;
    const slot = this.slot;
    this.slot = null;
    const browser = slot ? await slot.launching : null;
    await browser?.kill();
  }
}
