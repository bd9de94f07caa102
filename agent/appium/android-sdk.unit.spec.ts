import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { androidSdkHome } from './android-sdk.js';

const root = mkdtempSync(join(tmpdir(), 'qa-android-sdk-'));
const sdk = join(root, 'android-sdk');
const bin = join(root, 'bin');
const elsewhere = join(root, 'tools');
for (const dir of [join(sdk, 'platform-tools'), bin, elsewhere]) mkdirSync(dir, { recursive: true });
for (const file of [join(sdk, 'platform-tools', 'adb'), join(elsewhere, 'adb')]) {
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, 0o755);
}
// As Debian's package lays it out: the command on PATH a link into the SDK's platform-tools.
symlinkSync(join(sdk, 'platform-tools', 'adb'), join(bin, 'adb'));

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('androidSdkHome', () => {
  it('finds the SDK around the adb command on PATH, through its link', () => {
    expect(androidSdkHome('adb', { PATH: `${join(root, 'empty')}:${bin}` })).toBe(sdk);
  });

  it('finds it from an adb given by path', () => {
    expect(androidSdkHome(join(sdk, 'platform-tools', 'adb'), { PATH: '' })).toBe(sdk);
  });

  it('says nothing when the environment names the SDK already', () => {
    expect(androidSdkHome('adb', { PATH: bin, ANDROID_HOME: '/opt/sdk' })).toBeNull();
    expect(androidSdkHome('adb', { PATH: bin, ANDROID_SDK_ROOT: '/opt/sdk' })).toBeNull();
  });

  it('says nothing for an adb outside a platform-tools folder, or none at all', () => {
    expect(androidSdkHome(join(elsewhere, 'adb'), { PATH: '' })).toBeNull();
    expect(androidSdkHome('adb', { PATH: join(root, 'empty') })).toBeNull();
    expect(androidSdkHome(join(root, 'missing', 'adb'), { PATH: '' })).toBeNull();
  });
});
