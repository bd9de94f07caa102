import { describe, expect, it } from 'vitest';
import { DexBytes } from './bytes.js';
import { DexError, findTests, parseDex, type DexClass } from './index.js';

/** A DEX file made by hand: one class `LA;` (super `Ljava/lang/Object;`) without data; fields of the header overridable. */
function tinyDex(patch: (buf: Buffer) => void = () => {}): Buffer {
  const strings = ['LA;', 'Ljava/lang/Object;'];
  const data = strings.map((s) => Buffer.concat([Buffer.from([s.length]), Buffer.from(s), Buffer.from([0])]));
  const stringIds = 0x70;
  const typeIds = stringIds + 8;
  const classDefs = typeIds + 8;
  const dataStart = classDefs + 32;
  const buf = Buffer.alloc(dataStart + data.reduce((n, d) => n + d.length, 0));
  buf.write('dex\n035\0', 0, 'latin1');
  buf.writeUInt32LE(buf.length, 32);
  buf.writeUInt32LE(0x70, 36);
  buf.writeUInt32LE(0x12345678, 40);
  buf.writeUInt32LE(2, 56);
  buf.writeUInt32LE(stringIds, 60);
  buf.writeUInt32LE(2, 64);
  buf.writeUInt32LE(typeIds, 68);
  buf.writeUInt32LE(1, 96);
  buf.writeUInt32LE(classDefs, 100);
  let at = dataStart;
  data.forEach((d, i) => {
    buf.writeUInt32LE(at, stringIds + i * 4);
    d.copy(buf, at);
    at += d.length;
  });
  buf.writeUInt32LE(0, typeIds);
  buf.writeUInt32LE(1, typeIds + 4);
  buf.writeUInt32LE(0, classDefs); // class_idx → LA;
  buf.writeUInt32LE(1, classDefs + 4); // public
  buf.writeUInt32LE(1, classDefs + 8); // superclass → Ljava/lang/Object;
  buf.writeUInt32LE(0xffffffff, classDefs + 16);
  patch(buf);
  return buf;
}

const reasonOf = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    if (err instanceof DexError) return err.reason;
    throw err;
  }
  return 'no error';
};

describe('ULEB128', () => {
  const read = (bytes: number[]) => new DexBytes(Buffer.from(bytes)).uleb128(0, 'value');
  it('reads the examples of the DEX format document', () => {
    expect(read([0x00])).toEqual({ value: 0, next: 1 });
    expect(read([0x01])).toEqual({ value: 1, next: 1 });
    expect(read([0x7f])).toEqual({ value: 127, next: 1 });
    expect(read([0x80, 0x7f])).toEqual({ value: 16256, next: 2 });
    expect(read([0xe5, 0x8e, 0x26])).toEqual({ value: 624485, next: 3 });
  });
  it('reads the largest 32-bit value in five bytes, and refuses more', () => {
    expect(read([0xff, 0xff, 0xff, 0xff, 0x0f])).toEqual({ value: 0xffffffff, next: 5 });
    expect(reasonOf(() => read([0xff, 0xff, 0xff, 0xff, 0x1f]))).toBe('malformed');
    expect(reasonOf(() => read([0x80, 0x80, 0x80, 0x80, 0x80, 0x01]))).toBe('malformed');
  });
  it('refuses a value cut by the end of the file', () => {
    expect(reasonOf(() => read([0x80, 0x80]))).toBe('truncated');
  });
});

describe('reading a DEX file', () => {
  it('reads a class written by hand', () => {
    expect(parseDex(tinyDex())).toEqual([{ descriptor: 'LA;', superclass: 'Ljava/lang/Object;', accessFlags: 1, annotations: [], methods: [] }]);
  });
  it('refuses bytes that do not start with the DEX magic', () => {
    expect(reasonOf(() => parseDex(tinyDex((b) => b.write('PK\x03\x04', 0, 'latin1'))))).toBe('bad-magic');
    expect(reasonOf(() => parseDex(Buffer.from('dex\n035\0')))).toBe('truncated');
  });
  it('refuses a file cut anywhere', () => {
    const whole = tinyDex();
    for (let n = 0; n < whole.length; n++) expect(reasonOf(() => parseDex(whole.subarray(0, n))), `cut at ${n}`).toMatch(/truncated|malformed|out-of-range/);
  });
  it('refuses an index past its table', () => {
    expect(reasonOf(() => parseDex(tinyDex((b) => b.writeUInt32LE(9, 0x70 + 16))))).toBe('out-of-range'); // class_idx 9 of 2 types
    expect(reasonOf(() => parseDex(tinyDex((b) => b.writeUInt32LE(7, 0x70 + 8))))).toBe('out-of-range'); // type → string 7 of 2
  });
  it('refuses a table that reaches past the end', () => {
    expect(reasonOf(() => parseDex(tinyDex((b) => b.writeUInt32LE(0x10000000, 96))))).toBe('truncated');
  });
  it('refuses an unknown byte order', () => {
    expect(reasonOf(() => parseDex(tinyDex((b) => b.writeUInt32LE(0x78563412, 40))))).toBe('malformed');
  });
});

describe('finding tests', () => {
  const cls = (descriptor: string, superclass: string, methods: { name: string; annotations?: string[]; flags?: number; params?: string[]; ret?: string }[], extra: Partial<DexClass> = {}): DexClass => ({
    descriptor,
    superclass,
    accessFlags: 1,
    annotations: [],
    methods: methods.map((m) => ({ name: m.name, returnType: m.ret ?? 'V', parameters: m.params ?? [], accessFlags: m.flags ?? 1, annotations: (m.annotations ?? []).map((type) => ({ type, visibility: 'runtime' as const })) })),
    ...extra,
  });
  it('stops at a superclass cycle in bad bytes', () => {
    const a = cls('LA;', 'LB;', [{ name: 'testA' }]);
    const b = cls('LB;', 'LA;', [{ name: 'x', annotations: ['Lorg/junit/Test;'] }]);
    expect(findTests([a, b]).map((t) => `${t.className}#${t.methodName}`)).toEqual(['A#x', 'B#x']);
  });
  it('lists a JUnit 3 class reaching TestCase through a class of the APK, and not one that does not', () => {
    const base = cls('Lp/Base;', 'Ljunit/framework/TestCase;', [{ name: 'testBase' }], { accessFlags: 0x401 });
    const sub = cls('Lp/Sub;', 'Lp/Base;', [{ name: 'testSub' }, { name: 'testArg', params: ['I'] }, { name: 'testStatic', flags: 9 }]);
    const stray = cls('Lp/Stray;', 'Lp/Missing;', [{ name: 'testStray' }]);
    expect(findTests([base, sub, stray]).map((t) => `${t.className}#${t.methodName}`)).toEqual(['p.Sub#testBase', 'p.Sub#testSub']);
  });
  it('does not list system or build annotations', () => {
    const c = cls('Lp/T;', 'Ljava/lang/Object;', [{ name: 'a', annotations: ['Lorg/junit/Test;'] }], { annotations: [{ type: 'Ldalvik/annotation/InnerClass;', visibility: 'system' }, { type: 'Lp/Kept;', visibility: 'build' }] });
    expect(findTests([c])).toEqual([{ className: 'p.T', methodName: 'a', annotations: ['org.junit.Test'], ignored: false }]);
  });
});
