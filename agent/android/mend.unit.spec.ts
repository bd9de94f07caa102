import { describe, expect, it } from 'vitest';
import type { MendingReport } from '#shared/wire/index.js';
import { mendSteps, type MendActions } from './mend.js';
import { NotBack, parseBootProbe, spoken } from './reboot.js';

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

  it('restarts only the helpers for a fast path down, and says why when they did not come back, never reading storage or rebooting', async () => {
    const well = actions([], [100]);
    const ok = await mendSteps(well, { storageMinMb: 500, rebootAllowed: true, helpersOnly: true, report: () => undefined, backoffMs: noPause });
    expect(ok).toEqual({ mended: true, steps: [expect.objectContaining({ step: 'restart-helpers', result: 'ok' })] });
    expect(well.calls).toEqual(['restart-helpers']);
    const broken = actions(['restart-helpers'], [100]);
    const failed = await mendSteps(broken, { storageMinMb: 500, rebootAllowed: true, helpersOnly: true, report: () => undefined, backoffMs: noPause });
    expect(summary(failed.steps)).toEqual(['restart-helpers:failed']);
    expect(failed).toMatchObject({ mended: false, trouble: 'helpers did not come back: restart-helpers refused' });
    expect(broken.calls).toEqual(['restart-helpers']);
  });

  it('tells each step as it begins, before it runs, and never a reboot the rules skip', async () => {
    const a = actions(['restart-helpers', 'free-storage', 'reboot'], [100]);
    const told: string[] = [];
    const run = (name: 'restartHelpers' | 'freeStorage' | 'reboot') => {
      const real = a[name];
      a[name] = async () => {
        told.push(`ran ${name}`);
        await real();
      };
    };
    (['restartHelpers', 'freeStorage', 'reboot'] as const).forEach(run);
    await mendSteps(a, { storageMinMb: 500, rebootAllowed: true, report: () => undefined, begin: (step) => told.push(`begun ${step}`), backoffMs: noPause });
    expect(told).toEqual(['begun restart-helpers', 'ran restartHelpers', 'begun free-storage', 'ran freeStorage', 'begun reboot', 'ran reboot']);
    const skipped: string[] = [];
    await mendSteps(actions(['restart-helpers'], [100]), { storageMinMb: 500, rebootAllowed: false, report: () => undefined, begin: (step) => skipped.push(step), backoffMs: noPause });
    expect(skipped).toEqual(['restart-helpers', 'free-storage']);
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

  it('calls a reboot mended only when the device came back well: its storage read again, its helpers started again where they had failed', async () => {
    const a = actions(['free-storage'], [100, 900]);
    const r = await mendSteps(a, { storageMinMb: 500, rebootAllowed: true, report: () => undefined, backoffMs: noPause });
    expect(summary(r.steps)).toEqual(['restart-helpers:ok', 'free-storage:failed', 'reboot:ok']);
    expect(r.mended).toBe(true);
    expect(a.calls).toEqual(['restart-helpers', 'free-storage', 'reboot']);
    const still = await mendSteps(actions([], [100]), { storageMinMb: 500, rebootAllowed: true, report: () => undefined, backoffMs: noPause });
    expect(summary(still.steps)).toEqual(['restart-helpers:ok', 'free-storage:failed', 'reboot:failed']);
    expect(still.steps[2]!.error).toBe('came back but storage 100 MB free below 500 MB');
    expect(still.mended).toBe(false);
    expect(still.trouble).toBe('storage 100 MB free below 500 MB');
    const helpers = actions(['restart-helpers'], [100, 100, 900]);
    const broken = await mendSteps(helpers, { storageMinMb: 500, rebootAllowed: true, report: () => undefined, backoffMs: noPause });
    expect(helpers.calls).toEqual(['restart-helpers', 'free-storage', 'reboot', 'restart-helpers']);
    expect(broken.steps[2]!.error).toBe('came back but helpers did not come back: restart-helpers refused');
  });

  it('says why a reboot failed when the device is not back, and what is still wrong', async () => {
    const a = actions([], [100]);
    a.reboot = async () => {
      throw new NotBack('did not come back within 3 s (adb lists it offline)');
    };
    const r = await mendSteps(a, { storageMinMb: 500, rebootAllowed: true, report: () => undefined, backoffMs: noPause });
    expect(summary(r.steps)).toEqual(['restart-helpers:ok', 'free-storage:failed', 'reboot:failed']);
    expect(r.steps[2]!.error).toBe('did not come back within 3 s (adb lists it offline)');
    expect(r.trouble).toBe('storage 100 MB free below 500 MB');
  });

  it('fails a reboot whose device came back but cannot be read', async () => {
    const a = actions([], [100]);
    let readings = 0;
    a.storageFreeMb = async () => {
      if (++readings > 2) throw new Error('device offline');
      return 100;
    };
    const r = await mendSteps(a, { storageMinMb: 500, rebootAllowed: true, report: () => undefined, backoffMs: noPause });
    expect(r.steps[2]!.error).toBe('came back but its health could not be read: device offline');
    expect(r.mended).toBe(false);
  });
});

describe('the boot a rebooted device is in', () => {
  it('reads the boot id and sys.boot_completed from one answer, and says a wait as the step does', () => {
    expect(parseBootProbe('5a3c1f2e-9b7d-4e21-8c6a-0f1e2d3c4b5a\r\n1\r\n')).toEqual({ bootId: '5a3c1f2e-9b7d-4e21-8c6a-0f1e2d3c4b5a', completed: true });
    expect(parseBootProbe('5a3c1f2e-9b7d-4e21-8c6a-0f1e2d3c4b5a\n0\n')).toEqual({ bootId: '5a3c1f2e-9b7d-4e21-8c6a-0f1e2d3c4b5a', completed: false });
    expect(parseBootProbe('cat: /proc/sys/kernel/random/boot_id: Permission denied\n\n')).toEqual({ bootId: null, completed: false });
    expect(spoken(3_000)).toBe('3 s');
    expect(spoken(180_000)).toBe('3 min');
    expect(spoken(150_000)).toBe('2.5 min');
  });
});
