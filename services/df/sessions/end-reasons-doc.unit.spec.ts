import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SESSION_END_REASONS } from '#events/df/sessions.js';

// The module documentation's "Why a session ends" table lists every reason a session can end with: a
// reason added to the list without its line there fails here, and so does a line for a reason that is gone.
const doc = readFileSync('docs/modules/device-testing.md', 'utf8');
const start = doc.indexOf('### Why a session ends');
const rest = doc.slice(start + '### Why a session ends'.length);
const section = start < 0 ? '' : rest.slice(0, rest.search(/^#{2,3} /m));

describe('the end reasons documentation', () => {
  it('lists every reason a session ends with, and no other', () => {
    expect(start).toBeGreaterThan(-1);
    const documented = [...section.matchAll(/^\| `([\w-]+)` \|/gm)].map((m) => m[1]);
    expect(documented).toEqual([...SESSION_END_REASONS]);
  });
});
