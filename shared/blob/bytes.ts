import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { BlobTooLargeError } from './types.js';

/**
 * A pass-through that counts and hashes the bytes going by and fails with `BlobTooLargeError` once
 * more than `maxBytes` went past. `size` and `sha256()` are read once the stream has ended.
 */
export function meteredStream(maxBytes: number): { stream: Transform; readonly size: number; sha256(): string } {
  const hash = createHash('sha256');
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > maxBytes) return done(new BlobTooLargeError(maxBytes));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return {
    stream,
    get size() {
      return size;
    },
    sha256: () => hash.digest('hex'),
  };
}

/** Size and SHA-256 of every byte a stream gives, read through. */
export async function digestOf(bytes: AsyncIterable<unknown>): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of bytes) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

/** A file name safe inside a quoted `content-disposition` value. */
export function safeFileName(name: string): string {
  return name.replace(/[^A-Za-z0-9._ -]/g, '_').slice(0, 200);
}
