import { describe, expect, it } from 'vitest';
import type { DeviceInfo } from '#shared/wire/index.js';
import { LogRing } from '../provider.js';
import { DevicePaths } from './fast-paths.js';

const info = (): DeviceInfo => ({
  deviceId: 'a1',
  name: 'Phone',
  platform: 'android',
  osVersion: '14',
  model: 'Phone',
  manufacturer: 'PeerWorks',
  type: 'phone',
  isRealDevice: true,
  provider: 'android',
  screen: { width: 360, height: 640, scale: 1 },
});

describe("an Android device's paths and fast paths", () => {
  it('says nothing of a fast path not tried yet, and nothing for the UiAutomator2 server wanted but not started', () => {
    const paths = new DevicePaths(info(), new LogRing());
    expect(paths.reading()).toBeUndefined();
    paths.note('input', 'agent', null);
    paths.note('text', 'input', 'no Unicode input method', 'down');
    expect(paths.reading()).toBeUndefined();
  });

  it('keeps each fast path as its last start, failure or death left it, with why it is down or unavailable', () => {
    const i = info();
    const log = new LogRing();
    const paths = new DevicePaths(i, log);
    paths.note('screen', 'minicap', null, 'up');
    paths.note('input', 'minitouch', null, 'up');
    expect(paths.reading()).toEqual({ screen: { state: 'up' }, touch: { state: 'up' } });
    paths.note('screen', 'screencap', 'minicap stopped: Segmentation fault', 'down');
    paths.note('input', 'input', 'minitouch stopped', 'down');
    expect(paths.reading()).toEqual({ screen: { state: 'down', reason: 'minicap stopped: Segmentation fault' }, touch: { state: 'down', reason: 'minitouch stopped' } });
    expect(i.capabilities).toEqual({ screen: 'screencap', input: 'input', reason: 'screen: screencap (minicap stopped: Segmentation fault); input: input (minitouch stopped)' });
    // The UiAutomator2 server wanted again at the next session's start leaves the touch's last state.
    paths.note('input', 'agent', null);
    expect(paths.reading()?.touch).toEqual({ state: 'down', reason: 'minitouch stopped' });
    paths.note('screen', 'minicap', null, 'up');
    expect(paths.reading()?.screen).toEqual({ state: 'up' });
    expect(i.capabilities).toEqual({ screen: 'minicap', input: 'agent' });
    paths.note('screen', 'screencap', 'no minicap for ABI mips and SDK 30', 'unavailable');
    expect(paths.reading()?.screen).toEqual({ state: 'unavailable', reason: 'no minicap for ABI mips and SDK 30' });
    // A reading is a copy: a later change does not reach one already taken.
    const taken = paths.reading();
    paths.note('screen', 'minicap', null, 'up');
    expect(taken?.screen?.state).toBe('unavailable');
    expect(log.after(0).entries.map((e) => e.text)).toEqual(['screen: screencap (minicap stopped: Segmentation fault)', 'input: input (minitouch stopped)', 'screen: screencap (no minicap for ABI mips and SDK 30)']);
  });
});
