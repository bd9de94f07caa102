/** Reading a DEX file's bytes with every offset checked: bad bytes become a `DexError`, never a crash. */

/** Why a DEX file could not be read. */
export type DexErrorReason = 'bad-magic' | 'truncated' | 'out-of-range' | 'malformed';

/** Thrown for bytes that are not a readable DEX file; `reason` is stable, the message says where. */
export class DexError extends Error {
  constructor(
    readonly reason: DexErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'DexError';
  }
}

/** A DEX file's bytes, read at absolute offsets with bounds checks. */
export class DexBytes {
  constructor(readonly buf: Buffer) {}

  get length(): number {
    return this.buf.length;
  }

  /** Fails unless `size` bytes at `offset` are inside the file. */
  need(offset: number, size: number, what: string): void {
    if (!Number.isInteger(offset) || offset < 0 || size < 0 || offset + size > this.buf.length) {
      throw new DexError('truncated', `${what} at offset ${offset} (${size} bytes) is past the end of the file (${this.buf.length} bytes)`);
    }
  }

  u1(offset: number, what: string): number {
    this.need(offset, 1, what);
    return this.buf[offset]!;
  }

  u2(offset: number, what: string): number {
    this.need(offset, 2, what);
    return this.buf.readUInt16LE(offset);
  }

  u4(offset: number, what: string): number {
    this.need(offset, 4, what);
    return this.buf.readUInt32LE(offset);
  }

  /** An unsigned LEB128 at `offset`: its value (at most 32 bits) and the offset after it. */
  uleb128(offset: number, what: string): { value: number; next: number } {
    let value = 0;
    for (let i = 0; i < 5; i++) {
      const byte = this.u1(offset + i, what);
      value += (byte & 0x7f) * 2 ** (7 * i);
      if ((byte & 0x80) === 0) {
        if (value > 0xffffffff) throw new DexError('malformed', `${what} at offset ${offset} is larger than 32 bits`);
        return { value, next: offset + i + 1 };
      }
    }
    throw new DexError('malformed', `${what} at offset ${offset} is longer than 5 bytes`);
  }
}

/**
 * Modified UTF-8 (the DEX string encoding: UTF-8 of UTF-16 code units, NUL as `C0 80`) from `offset`
 * to its terminating zero byte, as a JavaScript string.
 */
export function readMutf8(bytes: DexBytes, offset: number, what: string): string {
  const buf = bytes.buf;
  const units: number[] = [];
  let p = offset;
  for (;;) {
    const a = bytes.u1(p, what);
    if (a === 0) break;
    if (a < 0x80) {
      units.push(a);
      p += 1;
    } else if ((a & 0xe0) === 0xc0) {
      const b = bytes.u1(p + 1, what);
      if ((b & 0xc0) !== 0x80) throw new DexError('malformed', `${what} at offset ${offset} is not modified UTF-8`);
      units.push(((a & 0x1f) << 6) | (b & 0x3f));
      p += 2;
    } else if ((a & 0xf0) === 0xe0) {
      bytes.need(p, 3, what);
      const b = buf[p + 1]!;
      const c = buf[p + 2]!;
      if ((b & 0xc0) !== 0x80 || (c & 0xc0) !== 0x80) throw new DexError('malformed', `${what} at offset ${offset} is not modified UTF-8`);
      units.push(((a & 0x0f) << 12) | ((b & 0x3f) << 6) | (c & 0x3f));
      p += 3;
    } else throw new DexError('malformed', `${what} at offset ${offset} is not modified UTF-8`);
  }
  let out = '';
  for (let i = 0; i < units.length; i += 4096) out += String.fromCharCode(...units.slice(i, i + 4096));
  return out;
}
