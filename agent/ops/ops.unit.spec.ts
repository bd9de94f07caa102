import { describe, expect, it } from 'vitest';
import type { DeviceDriver } from '../provider.js';
import { missingCapability, OPS, type SessionOp } from './index.js';

/** A driver with only the methods every device has: no app, file, upload or accessibility capability. */
const bare = { info: {}, prepare: async () => ({}), release: async () => {} } as unknown as DeviceDriver;
const withMethods = (...names: string[]) => ({ ...bare, ...Object.fromEntries(names.map((n) => [n, async () => ({})])) }) as unknown as DeviceDriver;
const ops = Object.keys(OPS) as SessionOp[];

describe('the agent operations table', () => {
  it('answers, for a device without the capability, the one sentence that says so, and nothing for the ops every device has', () => {
    expect(Object.fromEntries(ops.map((op) => [op, missingCapability(bare, op)]))).toEqual({
      screenshot: null,
      screencast: null,
      stopScreencast: null,
      startVideo: null,
      stopVideo: null,
      control: null,
      logs: null,
      uiTree: null,
      accessibilityScan: 'This device does not support accessibility scans (it has no accessibility engine)',
      apps: 'This device does not support apps',
      installApp: 'This device does not support installing apps',
      uninstallApp: 'This device does not support uninstalling apps',
      appPresence: 'This device does not support apps',
      openHelper: 'This device does not support app helpers',
      stageBegin: 'This device does not support uploads',
      stageChunk: null,
      stageCommit: null,
      pushFile: 'This device does not support files',
      pullFile: 'This device does not support files',
      listFiles: 'This device does not support files',
      deleteFile: 'This device does not support files',
      makeFolder: 'This device does not support files',
      instrumentStart: 'This device does not support instrumentation tests',
      instrumentPoll: 'This device does not support instrumentation tests',
      instrumentStop: 'This device does not support instrumentation tests',
      health: 'This device does not support health readings',
      retakeBaseline: 'This device does not support a settings baseline',
      setBaseline: 'This device does not support a settings baseline',
    });
  });

  it('lets an op through when the device has any one of the methods it may use', () => {
    expect(missingCapability(withMethods('pushFile'), 'stageBegin')).toBeNull();
    expect(missingCapability(withMethods('installApp'), 'stageBegin')).toBeNull();
    expect(missingCapability(withMethods('installApp'), 'pushFile')).toBe('This device does not support files');
    expect(missingCapability(withMethods('accessibilityScan'), 'accessibilityScan')).toBeNull();
    expect(missingCapability(withMethods('readHealth'), 'health')).toBeNull();
    expect(missingCapability(withMethods('retakeBaseline'), 'retakeBaseline')).toBeNull();
  });

  it('marks the ops that act on the device itself, outside any session: the baseline’s re-take only', () => {
    expect(ops.filter((op) => OPS[op].outsideSession)).toEqual(['retakeBaseline']);
  });

  it('marks the ops that act on the device itself in any state: the recorded baseline given back only', () => {
    expect(ops.filter((op) => OPS[op].anyState)).toEqual(['setBaseline']);
    expect(missingCapability(withMethods('setBaseline'), 'setBaseline')).toBeNull();
  });
});
