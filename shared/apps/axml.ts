/**
 * Android's binary XML (the compiled `AndroidManifest.xml` of an APK): the chunk format of
 * `frameworks/base/libs/androidfw/include/androidfw/ResourceTypes.h`, read without any native tool.
 */

/** A typed attribute value: a string, a number, a boolean, or a reference to a resource (`@0x7f...`). */
export type XmlValue = string | number | boolean | { ref: number };

export interface XmlAttribute {
  /** The attribute's name; android attributes are named by their resource id when the name was stripped. */
  name: string;
  /** The framework resource id of an `android:` attribute (0 for others). */
  resId: number;
  value: XmlValue;
}

export interface XmlElement {
  name: string;
  attributes: XmlAttribute[];
  children: XmlElement[];
}

export const RES_STRING_POOL_TYPE = 0x0001;
const RES_XML_TYPE = 0x0003;
const RES_XML_START_ELEMENT_TYPE = 0x0102;
const RES_XML_END_ELEMENT_TYPE = 0x0103;
const RES_XML_RESOURCE_MAP_TYPE = 0x0180;
const UTF8_FLAG = 0x100;

/** Android framework attribute ids (`android.R.attr`) the catalog reads, so obfuscated names still resolve. */
const FRAMEWORK_ATTRS: Record<number, string> = {
  0x01010001: 'label',
  0x01010002: 'icon',
  0x01010003: 'name',
  0x0101020c: 'minSdkVersion',
  0x0101021b: 'versionCode',
  0x0101021c: 'versionName',
  0x01010270: 'targetSdkVersion',
  0x01010271: 'maxSdkVersion',
};

/** Reads a string pool chunk starting at `start`. */
export function readStringPool(buf: Buffer, start: number): string[] {
  const headerSize = buf.readUInt16LE(start + 2);
  const count = buf.readUInt32LE(start + 8);
  const flags = buf.readUInt32LE(start + 16);
  const stringsStart = buf.readUInt32LE(start + 20);
  const utf8 = (flags & UTF8_FLAG) !== 0;
  const strings: string[] = [];
  for (let i = 0; i < count; i++) {
    let p = start + stringsStart + buf.readUInt32LE(start + headerSize + i * 4);
    if (utf8) {
      // Length in characters, then in bytes, each one or two bytes long.
      p += buf[p]! & 0x80 ? 2 : 1;
      let bytes = buf[p]!;
      if (bytes & 0x80) {
        bytes = ((bytes & 0x7f) << 8) | buf[p + 1]!;
        p += 2;
      } else p += 1;
      strings.push(buf.toString('utf8', p, p + bytes));
    } else {
      let chars = buf.readUInt16LE(p);
      if (chars & 0x8000) {
        chars = ((chars & 0x7fff) << 16) | buf.readUInt16LE(p + 2);
        p += 4;
      } else p += 2;
      strings.push(buf.toString('utf16le', p, p + chars * 2));
    }
  }
  return strings;
}

/** A `Res_value` at `p`: its type and data, as a JavaScript value. */
export function readValue(buf: Buffer, p: number, strings: readonly string[]): XmlValue {
  const dataType = buf[p + 3]!;
  const data = buf.readUInt32LE(p + 4);
  switch (dataType) {
    case 0x01: // reference
    case 0x02: // attribute reference
      return { ref: data };
    case 0x03:
      return strings[data] ?? '';
    case 0x04:
      return buf.readFloatLE(p + 4);
    case 0x12:
      return data !== 0;
    case 0x10:
      return buf.readInt32LE(p + 4);
    default:
      // Hex integers, colours, dimensions: the raw number.
      return data;
  }
}

/** Parses a binary XML document into its element tree; throws on anything that is not one. */
export function parseBinaryXml(buf: Buffer): XmlElement {
  if (buf.length < 8 || buf.readUInt16LE(0) !== RES_XML_TYPE) throw new Error('Not an Android binary XML document');
  let strings: string[] = [];
  let resourceIds: number[] = [];
  const root: XmlElement = { name: '#document', attributes: [], children: [] };
  const stack: XmlElement[] = [root];
  let p = buf.readUInt16LE(2);
  while (p + 8 <= buf.length) {
    const type = buf.readUInt16LE(p);
    const headerSize = buf.readUInt16LE(p + 2);
    const size = buf.readUInt32LE(p + 4);
    if (size < 8 || p + size > buf.length) throw new Error('Truncated binary XML chunk');
    if (type === RES_STRING_POOL_TYPE) strings = readStringPool(buf, p);
    else if (type === RES_XML_RESOURCE_MAP_TYPE) {
      resourceIds = [];
      for (let q = p + headerSize; q + 4 <= p + size; q += 4) resourceIds.push(buf.readUInt32LE(q));
    } else if (type === RES_XML_START_ELEMENT_TYPE) {
      const body = p + headerSize;
      const name = strings[buf.readUInt32LE(body + 4)] ?? '';
      const attributeStart = buf.readUInt16LE(body + 8);
      const attributeSize = buf.readUInt16LE(body + 10);
      const attributeCount = buf.readUInt16LE(body + 12);
      const attributes: XmlAttribute[] = [];
      for (let i = 0; i < attributeCount; i++) {
        const a = body + attributeStart + i * attributeSize;
        const nameIndex = buf.readUInt32LE(a + 4);
        const rawIndex = buf.readUInt32LE(a + 8);
        const resId = resourceIds[nameIndex] ?? 0;
        const attrName = FRAMEWORK_ATTRS[resId] ?? strings[nameIndex] ?? '';
        // A string attribute keeps its raw text; typed ones are read from their Res_value.
        const value = rawIndex !== 0xffffffff && buf[a + 15] === 0x03 ? (strings[rawIndex] ?? '') : readValue(buf, a + 12, strings);
        attributes.push({ name: attrName, resId, value });
      }
      const element: XmlElement = { name, attributes, children: [] };
      stack.at(-1)!.children.push(element);
      stack.push(element);
    } else if (type === RES_XML_END_ELEMENT_TYPE) {
      if (stack.length > 1) stack.pop();
    }
    p += size;
  }
  const top = root.children[0];
  if (!top) throw new Error('Binary XML without an element');
  return top;
}

/** The value of an element's attribute by name, or undefined. */
export const attr = (element: XmlElement | undefined, name: string): XmlValue | undefined => element?.attributes.find((a) => a.name === name)?.value;
