import { describe, expect, it } from 'vitest';
import { findUnstorableText, isUnstorable } from './input-hygiene.js';

describe('unstorable text', () => {
  it('finds a NUL character and lone surrogates of either half, and accepts paired ones', () => {
    expect(isUnstorable('a\u0000b')).toBe(true);
    expect(isUnstorable('a\ud800b')).toBe(true);
    expect(isUnstorable('a\udc00b')).toBe(true);
    expect(isUnstorable('end\ud83d')).toBe(true);
    expect(isUnstorable('emoji \ud83d\ude00 and ünïcödé')).toBe(false);
    expect(isUnstorable('tabs\tand\nnewlines')).toBe(false);
  });

  it('names the path of the first bad string in nested objects and arrays, keys included', () => {
    expect(findUnstorableText({ a: 'ok', b: [{ c: 'x' }, { d: 'y\u0000' }] }, 'body')).toBe('body.b.1.d');
    expect(findUnstorableText({ ['k\ud800']: 1 }, 'body')).toBe('body.k\ud800');
    expect(findUnstorableText({ a: ['fine', 1, null, true] }, 'query')).toBeNull();
  });

  it('leaves binary bodies alone and survives deep nesting without recursion', () => {
    expect(findUnstorableText(Buffer.from([0, 0xd8, 0]), 'body')).toBeNull();
    let deep: unknown = 'bad\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnstorableText(deep, 'body')).toBe(`body${'.0'.repeat(100_000)}`);
  });
});
