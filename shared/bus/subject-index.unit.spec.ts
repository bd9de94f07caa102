import { describe, expect, it } from 'vitest';
import { SubjectIndex } from './subject-index.js';
import { subjectMatches } from './subjects.js';

describe('SubjectIndex', () => {
  it('matches exact tokens, * for one token and > for one or more trailing tokens', () => {
    const index = new SubjectIndex<string>();
    for (const p of ['df.host.h1.hello', 'df.host.*.hello', 'df.host.>', 'df.>', 'df.*', '>', 'df.host.h1', 'other.x']) index.add(p, p);
    expect(index.match('df.host.h1.hello')).toEqual(['df.host.h1.hello', 'df.host.*.hello', 'df.host.>', 'df.>', '>']);
    expect(index.match('df.host')).toEqual(['df.>', 'df.*', '>']);
    expect(index.match('df.host.h1')).toEqual(['df.host.>', 'df.>', '>', 'df.host.h1']);
    expect(index.match('df')).toEqual(['>']);
    expect(index.match('other.y')).toEqual(['>']);
    expect(index.matches('nothing.here')).toBe(true);
    index.delete('>');
    expect(index.matches('nothing.here')).toBe(false);
  });

  it('returns matches in the order they were added and forgets deleted ones, pruning empty branches', () => {
    const index = new SubjectIndex<{ id: number }>();
    const a = { id: 1 };
    const b = { id: 2 };
    const c = { id: 3 };
    index.add('x.*.z', c);
    index.add('x.y.z', a);
    index.add('x.>', b);
    expect(index.match('x.y.z').map((v) => v.id)).toEqual([3, 1, 2]);
    index.delete(c);
    index.delete(a);
    expect(index.match('x.y.z').map((v) => v.id)).toEqual([2]);
    index.delete(b);
    expect(index.size).toBe(0);
    expect(index.match('x.y.z')).toEqual([]);
    // Deleting twice, or a value never added, is harmless.
    index.delete(b);
    index.add('x.y.z', a);
    expect(index.match('x.y.z')).toEqual([a]);
  });

  it('agrees with subjectMatches over many generated patterns and subjects', () => {
    // A small deterministic generator, so a failure names the same case every run.
    let seed = 12345;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const words = ['a', 'b', 'c'];
    const subject = () => Array.from({ length: 1 + rand(4) }, () => words[rand(3)]!).join('.');
    const pattern = () => {
      const length = 1 + rand(4);
      const tokens = Array.from({ length }, () => (rand(4) === 0 ? '*' : words[rand(3)]!));
      if (rand(4) === 0) tokens[length - 1] = '>';
      return tokens.join('.');
    };
    const patterns = Array.from({ length: 300 }, (_, i) => ({ i, p: pattern() }));
    const index = new SubjectIndex<{ i: number; p: string }>();
    for (const entry of patterns) index.add(entry.p, entry);
    for (let k = 0; k < 500; k++) {
      const s = subject();
      expect(index.match(s).map((e) => e.i), s).toEqual(patterns.filter((e) => subjectMatches(e.p, s)).map((e) => e.i));
    }
  });
});
