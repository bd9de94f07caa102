import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { startAdbServer, startPeer, type AdbServer } from '#test/helpers/adb.js';
import { eventually } from '#test/helpers/df-farm.js';
import type { MendingReport } from '#shared/wire/index.js';
import type { DeviceDriver } from '../provider.js';
import type { AndroidDevice } from './device.js';
import { AndroidProvider } from './provider.js';

/**
 * Mending's reboot waited out, against the adbd test device through Debian's adb server: `adb reboot`
 * takes the peer down (its connection ends), the test brings it back once it is down, the adb server
 * connects it again and the driver waits until it is booted (`sys.boot_completed` 0, then 1) and reads it.
 * A peer that stays down fails the step when the wait ends, and the provider withdraws it then, not before.
 */
const summary = (steps: MendingReport[]) => steps.map((s) => `${s.step}:${s.result}`);

async function providerOn(adb: AdbServer, rebootWaitMs: number) {
  const added: DeviceDriver[] = [];
  const removed: string[] = [];
  const provider = new AndroidProvider({ hostId: 'reboot-host', adbHost: '127.0.0.1', adbPort: adb.port, uiautomator2: false, rebootWaitMs, logger: pino({ level: 'silent' }) });
  await provider.start({ added: (d) => added.push(d), removed: (id) => removed.push(id) });
  return { provider, added, removed };
}

describe('a reboot of mending, waited out', () => {
  const started: { stop(): Promise<unknown> }[] = [];

  afterAll(async () => {
    for (const s of started.reverse()) await s.stop();
  });

  /** A device short of storage on an adb server of its own, offered by a provider that waits `rebootWaitMs` for a reboot. */
  async function lowOnStorage(model: string, rebootWaitMs: number) {
    const { peer, port } = await startPeer({ model });
    started.push({ stop: () => peer.close() });
    const adb = await startAdbServer();
    started.push(adb);
    peer.health.set({ dataFreeMb: 100 });
    const serial = await adb.connect(port);
    const { provider, added, removed } = await providerOn(adb, rebootWaitMs);
    started.push(provider);
    const driver = (await eventually(async () => added.find((d) => (d as AndroidDevice).serial === serial), { what: `${model} offered` })) as AndroidDevice;
    return { peer, serial, driver, removed };
  }

  it('is mended once the device is back, done booting and reads well; it stays offered throughout', { timeout: 90_000 }, async () => {
    const { peer, driver, removed } = await lowOnStorage('Reboot Phone', 45_000);
    const reports: MendingReport[] = [];
    const mending = driver.mend({ storageMinMb: 500, rebootAllowed: true }, (s) => reports.push(s));
    await peer.wentDown();
    expect(peer.record.reboots).toEqual(['']);
    // The reboot freed what filled the storage; the step is not over until the device is back.
    peer.health.set({ dataFreeMb: 16_384 });
    expect(reports.map((s) => s.step)).not.toContain('reboot');
    const before = peer.record.commands.length;
    await peer.comeBack();
    const answer = await mending;
    expect(summary(answer.steps)).toEqual(['restart-helpers:ok', 'free-storage:failed', 'reboot:ok']);
    expect(answer.mended).toBe(true);
    // It asked whether the device was done booting until it was (0, then 1), then read its health.
    const back = peer.record.commands.slice(before);
    expect(back.filter((c) => c.includes('getprop sys.boot_completed')).length).toBeGreaterThanOrEqual(2);
    expect(back.findLastIndex((c) => c.includes('dumpsys battery'))).toBeGreaterThan(back.findLastIndex((c) => c.includes('getprop sys.boot_completed')));
    expect(peer.properties['sys.boot_completed']).toBe('1');
    expect(removed).toEqual([]);
    // The same driver works the device again.
    expect((await driver.readHealth()).storageFreeMb).toBe(16_384);
  });

  it('fails the step with why when the device came back still short of storage', { timeout: 90_000 }, async () => {
    const { peer, driver } = await lowOnStorage('Still Full Phone', 45_000);
    const mending = driver.mend({ storageMinMb: 500, rebootAllowed: true }, () => undefined);
    await peer.wentDown();
    await peer.comeBack();
    const answer = await mending;
    expect(summary(answer.steps)).toEqual(['restart-helpers:ok', 'free-storage:failed', 'reboot:failed']);
    expect(answer.steps[2]!.error).toBe('came back but storage 100 MB free below 500 MB');
    expect(answer).toMatchObject({ mended: false, trouble: 'storage 100 MB free below 500 MB' });
  });

  it('fails the step when the device does not come back within the wait, and then withdraws it', { timeout: 60_000 }, async () => {
    const { peer, driver, removed } = await lowOnStorage('Gone Phone', 2_000);
    const answer = await driver.mend({ storageMinMb: 500, rebootAllowed: true }, () => undefined);
    expect(peer.down).toBe(true);
    expect(summary(answer.steps)).toEqual(['restart-helpers:ok', 'free-storage:failed', 'reboot:failed']);
    expect(answer.steps[2]!.error).toMatch(/^did not come back within 2 s \(adb (lists it offline|does not list it)\)$/);
    expect(answer.mended).toBe(false);
    expect(removed).toEqual([driver.info.deviceId]);
  });
});
