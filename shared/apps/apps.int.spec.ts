import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aaptBadging, referenceApks, testIpa } from '#test/helpers/apps.js';
import { zipOf } from '#test/helpers/zip.js';
import { NotAZipError, readAppArchive } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'qa-apps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, bytes: Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};

describe('reading app builds', () => {
  for (const [which, path] of Object.entries(referenceApks())) {
    it(`reads the ${which} APK exactly as Debian's aapt does`, async () => {
      const reference = await aaptBadging(path);
      const read = await readAppArchive(path);
      expect(read).toMatchObject({
        platform: 'android',
        identifier: reference.package,
        versionCode: reference.versionCode,
        versionName: reference.versionName,
        minOs: reference.sdkVersion,
        targetOs: reference.targetSdkVersion,
        name: reference.label || reference.package,
        abis: reference.abis,
      });
      expect(read!.permissions).toEqual([...new Set(reference.permissions)]);
    });
  }

  it('takes the launcher icon from the densest bitmap of the icon resource', async () => {
    const read = await readAppArchive(referenceApks().settings);
    expect(read!.icon!.contentType).toBe('image/png');
    expect(read!.icon!.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(read!.icon!.bytes.length).toBe(23_633);
  });

  it('reads an IPA made here: bundle id, versions and OS from its binary Info.plist', async () => {
    const read = await readAppArchive(file('app.ipa', testIpa({ bundleId: 'com.example.ipa', name: 'Example', version: '2.3.1', build: '231', minimumOs: '16.4' })));
    expect(read).toEqual({
      platform: 'ios',
      identifier: 'com.example.ipa',
      name: 'Example',
      versionName: '2.3.1',
      versionCode: '231',
      minOs: '16.4',
      targetOs: '17.2',
      abis: ['arm64'],
      permissions: ['NSCameraUsageDescription'],
      icon: null,
    });
  });

  it('answers null for a zip that is no app, and refuses what is no zip', async () => {
    expect(await readAppArchive(file('plain.zip', zipOf([['readme.txt', Buffer.from('hello')]])))).toBeNull();
    await expect(readAppArchive(file('fake.apk', Buffer.from('this is not a zip at all, but it is called .apk')))).rejects.toBeInstanceOf(NotAZipError);
  });
});
