import { describe, expect, it } from 'vitest';
import type { SessionRecord } from '#projections/df-sessions/index.js';
import { unexplained } from './watchdog.js';

const NOW = Date.parse('2026-01-02T03:00:00.000Z');
const GRACE = 60_000;
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const session = (over: Partial<SessionRecord>): SessionRecord => ({ id: 's1', status: 'active', lastActivityAt: ago(0), endedAt: null, ...over }) as SessionRecord;
const gone = { claimedBy: 'viewer' as const, present: false };

describe('what the busy-device watchdog finds unexplained', () => {
  it('an active session a connection claimed, with none present and no command for longer than the grace', () => {
    expect(unexplained(session({ lastActivityAt: ago(GRACE + 1) }), gone, NOW, GRACE)).toEqual({ why: 'no-live-holder', holder: 'viewer' });
    expect(unexplained(session({ lastActivityAt: ago(GRACE + 1) }), { claimedBy: 'webdriver', present: false }, NOW, GRACE)).toEqual({ why: 'no-live-holder', holder: 'webdriver' });
    // A test run's shard whose process died: nothing vouches for its session any more.
    expect(unexplained(session({ lastActivityAt: ago(GRACE + 1) }), { claimedBy: 'run-shard', present: false }, NOW, GRACE)).toEqual({ why: 'no-live-holder', holder: 'run-shard' });
  });

  it('not while a holder is present, a command came within the grace, or no connection ever claimed it', () => {
    expect(unexplained(session({ lastActivityAt: ago(10 * GRACE) }), { claimedBy: 'viewer', present: true }, NOW, GRACE)).toBeNull();
    expect(unexplained(session({ lastActivityAt: ago(GRACE - 1) }), gone, NOW, GRACE)).toBeNull();
    expect(unexplained(session({ lastActivityAt: ago(10 * GRACE) }), { claimedBy: null, present: false }, NOW, GRACE)).toBeNull();
  });

  it('not a session being prepared, nor one the read model does not show yet', () => {
    expect(unexplained(session({ status: 'starting', lastActivityAt: ago(10 * GRACE) }), gone, NOW, GRACE)).toBeNull();
    expect(unexplained(null, gone, NOW, GRACE)).toBeNull();
  });

  it('a device still held by a session closed for longer than the grace, not one that just closed', () => {
    expect(unexplained(session({ status: 'ended', endedAt: ago(GRACE + 1) }), { claimedBy: null, present: false }, NOW, GRACE)).toEqual({ why: 'closed-session' });
    expect(unexplained(session({ status: 'failed', endedAt: ago(GRACE + 1) }), { claimedBy: null, present: false }, NOW, GRACE)).toEqual({ why: 'closed-session' });
    expect(unexplained(session({ status: 'ended', endedAt: ago(1_000) }), { claimedBy: null, present: false }, NOW, GRACE)).toBeNull();
  });
});
