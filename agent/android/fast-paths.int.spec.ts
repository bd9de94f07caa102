import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { startAdbServer, startPeer, type AdbServer } from '#test/helpers/adb.js';
import { eventually } from '#test/helpers/df-farm.js';
import type { DeviceDriver } from '../provider.js';
import type { AndroidDevice } from './device.js';
import { AndroidProvider } from './provider.js';

/**
 * The fast paths' state in the Android driver's readings, against adbd test devices through Debian's adb
 * server: nothing said before a path was tried; mending's restart of the helpers (`helpersOnly`) proves
 * minicap, and the readings after it say `down` with the device's answer or `up`, in the reading's one
 * shell command; a device that can have no minicap reads `unavailable` and its restart does not fail.
 */
describe("an Android device's fast paths in its readings", () => {
  const started: { stop(): Promise<unknown> }[] = [];
  let adb: AdbServer;

  afterAll(async () => {
    for (const s of started.reverse()) await s.stop();
  });

  async function deviceOn(options: Parameters<typeof startPeer>[0]) {
    const { peer, port } = await startPeer(options);
    started.push({ stop: () => peer.close() });
    if (!adb) {
      adb = await startAdbServer();
      started.push(adb);
    }
    const serial = await adb.connect(port);
    const added: DeviceDriver[] = [];
    const provider = new AndroidProvider({ hostId: 'fast-paths-host', adbHost: '127.0.0.1', adbPort: adb.port, uiautomator2: false, logger: pino({ level: 'silent' }) });
    await provider.start({ added: (d) => added.push(d), removed: () => undefined });
    started.push(provider);
    const driver = (await eventually(async () => added.find((d) => (d as AndroidDevice).serial === serial), { what: `${options?.model} offered` })) as AndroidDevice;
    return { peer, driver };
  }

  it('reads minicap down with its answer after a failed restart, up after one that worked, in one shell command a reading', { timeout: 60_000 }, async () => {
    const { peer, driver } = await deviceOn({ model: 'Crashing Phone', release: '14', sdk: '34', minicapCrashes: true });
    expect((await driver.readHealth()).fastPaths).toBeUndefined();
    const failed = await driver.mend({ storageMinMb: 500, rebootAllowed: true, helpersOnly: true }, () => undefined);
    expect(failed.steps.map((s) => `${s.step}:${s.result}`)).toEqual(['restart-helpers:failed']);
    expect(failed.mended).toBe(false);
    const before = peer.record.commands.length;
    const down = await driver.readHealth();
    expect(peer.record.commands.length - before).toBe(1);
    expect(down.fastPaths?.screen).toEqual({ state: 'down', reason: expect.stringMatching(/^minicap apk: .*Segmentation fault/) });
    // Android 14 has no minitouch, and the provider's UiAutomator2 touch is off: the device cannot have a touch fast path.
    expect(down.fastPaths?.touch).toEqual({ state: 'unavailable', reason: expect.stringContaining('minitouch needs root on Android 10 and later') });
    expect(peer.record.reboots).toEqual([]);
    peer.options.minicapCrashes = false;
    const ok = await driver.mend({ storageMinMb: 500, rebootAllowed: true, helpersOnly: true }, () => undefined);
    expect(ok).toMatchObject({ mended: true, steps: [{ step: 'restart-helpers', result: 'ok' }] });
    expect((await driver.readHealth()).fastPaths?.screen).toEqual({ state: 'up' });
    expect(driver.info.capabilities?.screen).toBe('minicap');
  });

  it('reads minicap unavailable on a device with none for its ABI and SDK, whose restart of the helpers does not fail for it', { timeout: 60_000 }, async () => {
    const { peer, driver } = await deviceOn({ model: 'Odd Phone', release: '4.4', sdk: '19', abi: 'riscv64' });
    const answer = await driver.mend({ storageMinMb: 500, rebootAllowed: false, helpersOnly: true }, () => undefined);
    expect(answer).toMatchObject({ mended: true, steps: [{ step: 'restart-helpers', result: 'ok' }] });
    const reading = await driver.readHealth();
    expect(reading.fastPaths?.screen).toEqual({ state: 'unavailable', reason: 'no minicap for ABI riscv64 and SDK 19' });
    expect(reading.fastPaths?.touch).toEqual({ state: 'unavailable', reason: expect.stringContaining('no minitouch for ABI riscv64') });
    expect(peer.record.minicapStarts).toEqual([]);
  });
});
