import { build, buildBinary, parse, parseBinary, type PlistValue } from 'plist';

export type { PlistValue };
export type PlistDict = { [key: string]: PlistValue };

/** A property list in either encoding: binary (`bplist00`, what appium-ios-device sends) or XML (libimobiledevice). */
export function decodePlist(bytes: Buffer): PlistValue {
  return bytes.subarray(0, 8).toString('latin1') === 'bplist00' ? parseBinary(bytes) : parse(bytes.toString('utf8'));
}

export const isBinaryPlist = (bytes: Buffer) => bytes.subarray(0, 8).toString('latin1') === 'bplist00';

/** Encodes as the peer's counterpart did: a device answers in the encoding it was asked in. */
export function encodePlist(value: PlistValue, binary: boolean): Buffer {
  return binary ? Buffer.from(buildBinary(value)) : Buffer.from(build(value));
}

export const asDict = (v: PlistValue): PlistDict | null => (v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array) && !(v instanceof Date) ? (v as PlistDict) : null);

/**
 * Splits a byte stream into frames of a 4-byte big-endian length and a body (lockdown and every plist
 * service: installation_proxy, screenshotr, webinspector).
 */
export class LengthFramer {
  private buffer = Buffer.alloc(0);
  constructor(private readonly onFrame: (body: Buffer) => void) {}
  push(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length >= 4) {
      const length = this.buffer.readUInt32BE(0);
      if (this.buffer.length < 4 + length) return;
      const body = this.buffer.subarray(4, 4 + length);
      this.buffer = this.buffer.subarray(4 + length);
      this.onFrame(body);
    }
  }
}

export function lengthFrame(body: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt32BE(body.length, 0);
  return Buffer.concat([header, body]);
}
