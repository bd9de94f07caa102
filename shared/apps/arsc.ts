import { readStringPool, readValue, RES_STRING_POOL_TYPE, type XmlValue } from './axml.js';

const RES_TABLE_TYPE = 0x0002;
const RES_TABLE_PACKAGE_TYPE = 0x0200;
const RES_TABLE_TYPE_TYPE = 0x0201;
const NO_ENTRY = 0xffffffff;
const FLAG_COMPLEX = 0x0001;
const FLAG_COMPACT = 0x0008;
const TYPE_FLAG_SPARSE = 0x01;
const TYPE_FLAG_OFFSET16 = 0x02;

/** One value of a resource in one configuration. */
export interface ResourceValue {
  value: XmlValue;
  /** Screen density of the configuration (0 default, 0xfffe anydpi, 0xffff none). */
  density: number;
  /** Whether the configuration is the default one (no language, region or other qualifier before density). */
  isDefault: boolean;
}

interface TypeChunk {
  buf: Buffer;
  start: number;
  density: number;
  isDefault: boolean;
}

/**
 * An APK's `resources.arsc`, enough to resolve `@0x7f...` references from the manifest (the app's
 * label and icon) in every configuration.
 */
export class ResourceTable {
  private readonly strings: string[] = [];
  /** Type chunks by `(packageId << 8) | typeId`. */
  private readonly types = new Map<number, TypeChunk[]>();

  constructor(private readonly buf: Buffer) {
    if (buf.length < 12 || buf.readUInt16LE(0) !== RES_TABLE_TYPE) throw new Error('Not a resource table');
    let p = buf.readUInt16LE(2);
    while (p + 8 <= buf.length) {
      const type = buf.readUInt16LE(p);
      const size = buf.readUInt32LE(p + 4);
      if (size < 8 || p + size > buf.length) break;
      if (type === RES_STRING_POOL_TYPE && this.strings.length === 0) this.strings = readStringPool(buf, p);
      else if (type === RES_TABLE_PACKAGE_TYPE) this.readPackage(p, size);
      p += size;
    }
  }

  private readPackage(start: number, size: number): void {
    const id = this.buf.readUInt32LE(start + 8);
    let p = start + this.buf.readUInt16LE(start + 2);
    while (p + 8 <= start + size) {
      const type = this.buf.readUInt16LE(p);
      const chunkSize = this.buf.readUInt32LE(p + 4);
      if (chunkSize < 8) break;
      if (type === RES_TABLE_TYPE_TYPE) {
        const typeId = this.buf[p + 8]!;
        const config = p + 20;
        const configSize = this.buf.readUInt32LE(config);
        const density = configSize >= 16 ? this.buf.readUInt16LE(config + 14) : 0;
        // mcc, mnc, language, country, orientation, touchscreen all zero: not specific to a place or device.
        const isDefault = configSize >= 14 && this.buf.subarray(config + 4, config + 14).every((b) => b === 0);
        const key = (id << 8) | typeId;
        const list = this.types.get(key) ?? [];
        list.push({ buf: this.buf, start: p, density, isDefault });
        this.types.set(key, list);
      }
      p += chunkSize;
    }
  }

  /** Every value the resource `id` has across configurations, references followed (at most a few hops). */
  resolve(id: number, depth = 0): ResourceValue[] {
    const chunks = this.types.get((id >>> 24) * 256 + ((id >>> 16) & 0xff)) ?? [];
    const entryIndex = id & 0xffff;
    const out: ResourceValue[] = [];
    for (const chunk of chunks) {
      const value = this.entryValue(chunk, entryIndex);
      if (value === null) continue;
      if (typeof value === 'object' && depth < 4) {
        for (const inner of this.resolve(value.ref, depth + 1)) out.push({ ...inner, density: chunk.density || inner.density, isDefault: chunk.isDefault && inner.isDefault });
      } else out.push({ value, density: chunk.density, isDefault: chunk.isDefault });
    }
    return out;
  }

  private entryValue(chunk: TypeChunk, index: number): XmlValue | null {
    const { buf, start } = chunk;
    const headerSize = buf.readUInt16LE(start + 2);
    const flags = buf[start + 9]!;
    const entryCount = buf.readUInt32LE(start + 12);
    const entriesStart = buf.readUInt32LE(start + 16);
    let offset = NO_ENTRY;
    if (flags & TYPE_FLAG_SPARSE) {
      for (let i = 0; i < entryCount; i++) {
        const p = start + headerSize + i * 4;
        if (buf.readUInt16LE(p) === index) {
          offset = buf.readUInt16LE(p + 2) * 4;
          break;
        }
      }
    } else if (index < entryCount) {
      if (flags & TYPE_FLAG_OFFSET16) {
        const o = buf.readUInt16LE(start + headerSize + index * 2);
        offset = o === 0xffff ? NO_ENTRY : o * 4;
      } else offset = buf.readUInt32LE(start + headerSize + index * 4);
    }
    if (offset === NO_ENTRY) return null;
    const entry = start + entriesStart + offset;
    const entryFlags = buf.readUInt16LE(entry + 2);
    if (entryFlags & FLAG_COMPACT) {
      // A compact entry: the value's type in the high byte of the flags, its data after the key.
      const fake = Buffer.alloc(8);
      fake[3] = entryFlags >>> 8;
      fake.writeUInt32LE(buf.readUInt32LE(entry + 4), 4);
      return readValue(fake, 0, this.strings);
    }
    if (entryFlags & FLAG_COMPLEX) return null;
    return readValue(buf, entry + buf.readUInt16LE(entry), this.strings);
  }
}
