import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SESSION_END_REASONS } from '#events/df/sessions.js';

// Every reason a session can end with is made to happen by some spec: a reason added to
// SESSION_END_REASONS that no spec names (as a quoted string literal) fails here, with its name.
const SKIP = new Set(['node_modules', 'dist', '.git', 'coverage']);

function specFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) specFiles(path, out);
    else if (entry.name.endsWith('.spec.ts')) out.push(path);
  }
  return out;
}

/**
 * The reasons that no text among `texts` names as a quoted string literal ('x' or "x"). A reason in
 * backticks does not count: that is how comments name things, and a comment makes nothing happen.
 */
export function reasonsWithoutSpec(reasons: readonly string[], texts: readonly string[]): string[] {
  return reasons.filter((reason) => !texts.some((text) => ["'", '"'].some((q) => text.includes(`${q}${reason}${q}`))));
}

describe('the session end reasons', () => {
  it('finds a reason named only in prose or a comment, or not at all, and not one named as a literal', () => {
    const texts = ["expect(s.endReason).toBe('user');", 'ends when the host-lost sweep runs', 'end("device-reset")', '// ends with `host-stopped`'];
    expect(reasonsWithoutSpec(['user', 'host-lost', 'device-reset', 'host-stopped', 'max-duration'], texts)).toEqual(['host-lost', 'host-stopped', 'max-duration']);
  });

  it('are each named by a spec that is not this one', () => {
    const self = 'end-reasons-specs.unit.spec.ts';
    const texts = specFiles('.')
      .filter((f) => !f.endsWith(self))
      .map((f) => readFileSync(f, 'utf8'));
    expect(texts.length).toBeGreaterThan(0);
    expect(reasonsWithoutSpec(SESSION_END_REASONS, texts), 'end reasons no spec makes happen').toEqual([]);
  });
});
