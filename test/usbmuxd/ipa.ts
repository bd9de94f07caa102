import yauzl, { type Entry } from 'yauzl';
import { asDict, decodePlist } from './codec.js';

/** What a device reads from an IPA it is asked to install: `Payload/<App>.app/Info.plist`. */
export async function bundleIdOfIpa(bytes: Buffer): Promise<{ bundleId: string; name: string; version: string }> {
  const info = await new Promise<Buffer>((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('not a zip'));
      zip.on('entry', (entry: Entry) => {
        if (!/^Payload\/[^/]+\.app\/Info\.plist$/.test(entry.fileName)) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('unreadable entry'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            zip.close();
            resolve(Buffer.concat(chunks));
          });
        });
      });
      zip.on('end', () => reject(new Error('The package has no Payload/<App>.app/Info.plist')));
      zip.readEntry();
    });
  });
  const plist = asDict(decodePlist(info));
  const bundleId = plist?.CFBundleIdentifier;
  if (typeof bundleId !== 'string') throw new Error('Info.plist names no CFBundleIdentifier');
  return { bundleId, name: String(plist?.CFBundleName ?? bundleId), version: String(plist?.CFBundleShortVersionString ?? '1.0') };
}
