import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The repository stands on its own: no comment, document or test name points at a document that is not
 * in it (the product's interface contract, its design notes, a tracker's issue numbers). Each of these
 * patterns is such a pointer; RFCs and other public standards are cited by name and are fine.
 */
const POINTERS: [RegExp, string][] = [
  [/\binterface (?:sections? )?\d+(?:\.\d+)?\b/i, 'a section of the interface contract'],
  [/\(design \d+\)|\bdesign \d+\b/i, 'a section of the design notes'],
  [/\bissue #?\d+\b/i, 'an issue number'],
  [/decisions\.md|service-interface\.md|\.\.\/shared\/spec/, 'a file outside the repository'],
];
const TEXT = /\.(ts|tsx|mjs|js|md|css|html|json|yml|yaml|sh)$|(^|\/)(Dockerfile|run)$/;

describe('the repository is self-contained', () => {
  it('cites no document outside it', () => {
    const files = execFileSync('git', ['ls-files'], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => TEXT.test(f) && f !== 'package-lock.json' && f !== 'test/self-contained.unit.spec.ts');
    const found: string[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      text.split('\n').forEach((line, i) => {
        for (const [pattern, what] of POINTERS) if (pattern.test(line)) found.push(`${file}:${i + 1} cites ${what}: ${line.trim().slice(0, 120)}`);
      });
    }
    expect(found).toEqual([]);
  });
});
