import { describe, expect, it } from 'vitest';
import type { MendingReport } from '#shared/wire/index.js';
import { mendSteps, type MendActions } from './mend.js';

/** Actions that record their calls; `fail` names those that throw, `freeMb` the storage each reading says in turn. */
function actions(fail: string[], freeMb: number[]): MendActions & { calls: string[] } {
  const calls: string[] = [];
  const run = (name: string) => async () => {
    calls.push(name);
    if (fail.includes(name)) throw new Error(`${name} refused`);
  };
  let reading = 0;
  return {
    calls,
    restartHelpers: run('restart-helpers'),
    freeStorage: run('free-storage'),
    reboot: run('reboot'),
    storageFreeMb: async () => freeMb[Math.min(reading++, freeMb.length - 1)],
  };
}
const noPause = [0, 0, 0];
const summary = (steps: MendingReport[]) => steps.map((s) => `${s.step}:${s.result}`);

describe('mending a device that is there but unwell', () => {
  it('stops at the first step after which the device is well', async () => {
    const a = actions([], [100, 900]);
    const reports: MendingReport[] = [];
    const r = await mendSteps(a, { storageMinMb: 500, rebootAllowed: true, report: (s) => reports.push(s), backoffMs: noPause });
    expect(r.mended).toBe(true);
    expect(summary(r.steps)).toEqual(['restart-helpers:ok', 'free-storage:ok']);
    expect(reports).toEqual(r.steps);
    expect(a.calls).toEqual(['restart-helpers', 'free-storage']);
  });

  it('goes on to a reboot only where the rules allow it, and says what is still wrong', async () => {
    const skipped = await mendSteps(actions(['restart-helpers'], [100]), { storageMinMb: 500, rebootAllowed: false, report: () => undefined, backoffMs: noPause });
    expect(summary(skipped.steps)).toEqual(['restart-helpers:failed', 'free-storage:failed', 'reboot:skipped']);
    expect(skipped.mended).toBe(false);
    expect(skipped.trouble).toBe('helpers did not come back: restart-helpers refused; storage 100 MB free below 500 MB');
    expect(skipped.steps[1]!.error).toBe("storage 100 MB free below 500 MB after removing the platform's leftovers");
    const a = actions(['restart-helpers', 'free-storage', 'reboot'], [100]);
    const failed = await mendSteps(a, { storageMinMb: 500, rebootAllowed: true, report: () => undefined, backoffMs: noPause });
    expect(summary(failed.steps)).toEqual(['restart-helpers:failed', 'free-storage:failed', 'reboot:failed']);
    expect(failed.steps[2]!.error).toBe('reboot refused');
    expect(failed.mended).toBe(false);
    expect(a.calls).toEqual(['restart-helpers', 'free-storage', 'reboot']);
  });

  it('ends with an accepted reboot (the device goes away; its readings say the rest)', async () => {
    const r = await mendSteps(actions(['free-storage'], [100]), { storageMinMb: 500, rebootAllowed: true, report: () => undefined, backoffMs: noPause });
    expect(summary(r.steps)).toEqual(['restart-helpers:ok', 'free-storage:failed', 'reboot:ok']);
    expect(r.mended).toBe(true);
  });
});
