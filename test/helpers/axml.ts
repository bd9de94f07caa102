/**
 * An encoder of Android binary XML (the compiled `AndroidManifest.xml`), written here for tests so an
 * APK can be made without the Android SDK. `aapt dump xmltree` reads what it writes. Attributes in the
 * `android:` namespace carry their framework resource id (the resource map), as aapt writes them.
 */

export interface XmlNode {
  name: string;
  /** `android:name` style keys are in the android namespace; values are strings, integers or booleans. */
  attributes?: Record<string, string | number | boolean>;
  children?: XmlNode[];
}

const ANDROID_NS = 'http://schemas.android.com/apk/res/android';
/** `android.R.attr` ids of the attributes tests write. */
const ANDROID_ATTR_IDS: Record<string, number> = {
  label: 0x01010001,
  name: 0x01010003,
  targetPackage: 0x01010021,
  minSdkVersion: 0x0101020c,
  versionCode: 0x0101021b,
  versionName: 0x0101021c,
  targetSdkVersion: 0x01010270,
};

const u16 = (n: number) => Buffer.from(new Uint16Array([n]).buffer);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};
const chunk = (type: number, headerSize: number, header: Buffer, body: Buffer) => Buffer.concat([u16(type), u16(headerSize), u32(8 + header.length + body.length), header, body]);

/** Encodes `root` (with the `android` namespace declared on it) as binary XML. */
export function encodeBinaryXml(root: XmlNode): Buffer {
  // Attribute names with a resource id come first in the pool, in the order of the resource map.
  const androidNames = new Set<string>();
  const walk = (n: XmlNode, f: (n: XmlNode) => void) => {
    f(n);
    for (const c of n.children ?? []) walk(c, f);
  };
  walk(root, (n) => {
    for (const key of Object.keys(n.attributes ?? {})) if (key.startsWith('android:')) androidNames.add(key.slice(8));
  });
  const strings: string[] = [...androidNames];
  const idOf = (s: string) => {
    let i = strings.indexOf(s);
    if (i < 0) i = strings.push(s) - 1;
    return i;
  };
  const resourceIds = [...androidNames].map((n) => {
    const id = ANDROID_ATTR_IDS[n];
    if (id === undefined) throw new Error(`No resource id known for android:${n}`);
    return id;
  });
  const nsPrefix = idOf('android');
  const nsUri = idOf(ANDROID_NS);

  const body: Buffer[] = [];
  const NONE = 0xffffffff;
  const lineHeader = (line: number) => Buffer.concat([u32(line), u32(NONE)]);
  body.push(chunk(0x0100, 16, lineHeader(1), Buffer.concat([u32(nsPrefix), u32(nsUri)])));
  let line = 1;
  const element = (n: XmlNode) => {
    line += 1;
    const attrs = Object.entries(n.attributes ?? {}).map(([key, value]) => {
      const android = key.startsWith('android:');
      const name = idOf(android ? key.slice(8) : key);
      const isString = typeof value === 'string';
      const raw = isString ? idOf(value) : NONE;
      const [type, data] = isString ? [0x03, raw] : typeof value === 'boolean' ? [0x12, value ? 0xffffffff : 0] : [0x10, value];
      return { android, name, bytes: Buffer.concat([u32(android ? nsUri : NONE), u32(name), u32(raw), u16(8), Buffer.from([0, type]), u32(data)]) };
    });
    // The runtime looks attributes up by a binary search on their resource ids: android ones first, sorted.
    attrs.sort((a, b) => (a.android === b.android ? (a.android ? resourceIds[a.name]! - resourceIds[b.name]! : 0) : a.android ? -1 : 1));
    const ext = Buffer.concat([u32(NONE), u32(idOf(n.name)), u16(20), u16(20), u16(attrs.length), u16(0), u16(0), u16(0)]);
    body.push(chunk(0x0102, 16, lineHeader(line), Buffer.concat([ext, ...attrs.map((a) => a.bytes)])));
    for (const c of n.children ?? []) element(c);
    body.push(chunk(0x0103, 16, lineHeader(line), Buffer.concat([u32(NONE), u32(idOf(n.name))])));
  };
  element(root);
  body.push(chunk(0x0101, 16, lineHeader(line), Buffer.concat([u32(nsPrefix), u32(nsUri)])));

  const pool = stringPool(strings);
  const resourceMap = chunk(0x0180, 8, Buffer.alloc(0), Buffer.concat(resourceIds.map(u32)));
  const content = Buffer.concat([pool, resourceMap, ...body]);
  return Buffer.concat([u16(0x0003), u16(8), u32(8 + content.length), content]);
}

/** A UTF-16 string pool chunk. */
function stringPool(strings: readonly string[]): Buffer {
  const offsets: Buffer[] = [];
  const data: Buffer[] = [];
  let at = 0;
  for (const s of strings) {
    offsets.push(u32(at));
    const bytes = Buffer.concat([u16(s.length), Buffer.from(s, 'utf16le'), u16(0)]);
    data.push(bytes);
    at += bytes.length;
  }
  let stringData = Buffer.concat(data);
  if (stringData.length % 4) stringData = Buffer.concat([stringData, Buffer.alloc(4 - (stringData.length % 4))]);
  const headerSize = 28;
  const stringsStart = headerSize + strings.length * 4;
  const header = Buffer.concat([u32(strings.length), u32(0), u32(0), u32(stringsStart), u32(0)]);
  return chunk(0x0001, headerSize, header, Buffer.concat([...offsets, stringData]));
}
