import { main } from '#services/run.js';

/**
 * `services/main.ts` with one part that never stops, for the shutdown deadline's tests:
 * `STUCK_PART=handle` holds the event loop with an interval and never resolves; `STUCK_PART=busy`
 * blocks the event loop in synchronous code (no timer of the main thread can fire).
 */
const running = await main();
const mode = process.env.STUCK_PART;
if (running && mode === 'handle') {
  running.addPart('stuck test part', () => new Promise<void>(() => void setInterval(() => undefined, 1_000)));
}
if (running && mode === 'busy') {
  running.addPart('busy test part', async () => {
    for (;;) {
      // spins for ever
    }
  });
}
