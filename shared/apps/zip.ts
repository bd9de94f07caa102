import yauzl, { type Entry, type ZipFile } from 'yauzl';

/** A zip archive opened for reading entries by name (its central directory read once). */
export interface ZipReader {
  /** Every entry name, in archive order. */
  readonly names: readonly string[];
  /** The bytes of one entry (inflated), or null when absent; more than `maxBytes` throws. */
  read(name: string, maxBytes?: number): Promise<Buffer | null>;
  close(): void;
}

/** Thrown for bytes that are not a readable zip archive. */
export class NotAZipError extends Error {
  constructor(cause: unknown) {
    super(`Not a readable zip archive: ${(cause as Error).message}`, { cause });
    this.name = 'NotAZipError';
  }
}

const DEFAULT_MAX_ENTRY = 64 * 1024 * 1024;

/** Opens the zip at `path`; only its central directory is read until entries are asked for. */
export async function openZip(path: string): Promise<ZipReader> {
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true, strictFileNames: false }, (err, z) => (err ? reject(new NotAZipError(err)) : resolve(z))),
  );
  const entries = new Map<string, Entry>();
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: Entry) => {
        if (!entries.has(entry.fileName)) entries.set(entry.fileName, entry);
        zip.readEntry();
      });
      zip.once('end', () => resolve());
      zip.once('error', (err: Error) => reject(new NotAZipError(err)));
      zip.readEntry();
    });
  } catch (err) {
    zip.close();
    throw err;
  }
  return {
    names: [...entries.keys()],
    async read(name, maxBytes = DEFAULT_MAX_ENTRY) {
      const entry = entries.get(name);
      if (!entry) return null;
      if (entry.uncompressedSize > maxBytes) throw new Error(`${name} is larger than ${maxBytes} bytes`);
      const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) => zip.openReadStream(entry, (err, s) => (err ? reject(new NotAZipError(err)) : resolve(s))));
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    close: () => zip.close(),
  };
}
