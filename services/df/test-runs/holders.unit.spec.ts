import { describe, expect, it } from 'vitest';
import { createMemoryKv } from '#shared/kv/index.js';
import { SessionHolders } from '../core/holders.js';
import { RunMarks, ShardHolders } from './holders.js';

describe("a test run's shards as holders of their sessions", () => {
  it('claims a shard session run-shard, vouches for it at every publish while the shard runs here, and stops once let go', async () => {
    const kv = createMemoryKv();
    const holders = new SessionHolders(kv, 60_000);
    const shards = new ShardHolders(holders);
    await shards.hold('s-1');
    expect(await holders.of(['s-1', 's-2'])).toEqual([
      { claimedBy: 'run-shard', present: true },
      { claimedBy: null, present: false },
    ]);

    // The presence written at the claim runs out (as after two watchdog periods); the next publish writes it again.
    await kv.delete('df:holder:present:s-1');
    await holders.publish();
    expect(await holders.of(['s-1'])).toEqual([{ claimedBy: 'run-shard', present: true }]);

    shards.letGo('s-1');
    await kv.delete('df:holder:present:s-1');
    await holders.publish();
    expect(await holders.of(['s-1'])).toEqual([{ claimedBy: 'run-shard', present: false }]);
    await kv.close();
  });

  it("marks a run as this process's until it is forgotten", async () => {
    const kv = createMemoryKv();
    const marks = new RunMarks(kv);
    expect(await marks.held('run-1')).toBe(false);
    await marks.mark('run-1');
    expect(await marks.held('run-1')).toBe(true);
    expect(await new RunMarks(kv).held('run-1')).toBe(true);
    await marks.forget('run-1');
    expect(await marks.held('run-1')).toBe(false);
    await kv.close();
  });
});
