import { encodePng } from '#test/adbd/png.js';
import { zipOf } from '#test/helpers/zip.js';
import { build } from 'plist';

/** A small PNG with a recognisable pattern (what the test device's screen shows). */
export function testScreen(width = 60, height = 120): Buffer {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      data[i] = (x * 4) & 0xff;
      data[i + 1] = (y * 2) & 0xff;
      data[i + 2] = 0x80;
    }
  }
  return encodePng({ width, height, pixels: data });
}

/** An IPA: a zip with `Payload/<Name>.app/Info.plist` (XML) and an executable. */
export function testIpa(bundleId: string, name = 'Example'): Buffer {
  const info = build({ CFBundleIdentifier: bundleId, CFBundleName: name, CFBundleShortVersionString: '1.2', CFBundleVersion: '12', MinimumOSVersion: '15.0' });
  return zipOf([
    [`Payload/${name}.app/Info.plist`, Buffer.from(info)],
    [`Payload/${name}.app/${name}`, Buffer.alloc(4096, 7)],
  ]);
}
