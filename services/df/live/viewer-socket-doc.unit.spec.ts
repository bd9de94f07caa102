import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ControlAction } from '#shared/wire/index.js';
import { ClientMessage } from './ws-routes.js';

// The module documentation's "The viewer socket" section lists every message of the socket, both
// ways: the types come from the code itself, so a message added there without its line in the
// documentation fails here.
const doc = readFileSync('docs/modules/device-testing.md', 'utf8');
const start = doc.indexOf('### The viewer socket');
const rest = doc.slice(start + '### The viewer socket'.length);
const end = rest.search(/^#{2,3} /m);
const section = start < 0 ? '' : rest.slice(0, end < 0 ? undefined : end);
/** The `type`s of the section's table rows (`| \`type\` | ...`). */
const tableTypes = new Set([...section.matchAll(/^\| `([\w.]+)` \|/gm)].map((m) => m[1]!));

/** The non-spec TypeScript files under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}
/** The `type` of every JSON message the device-testing service sends on a viewer socket. */
function sentTypes(): Set<string> {
  const found = new Set<string>();
  const sends = /(?:socket\.send\(JSON\.stringify\(|sendJson\(|hub\.notify\([^,()]+,\s*)\{\s*type:\s*'([\w.]+)'/g;
  for (const file of sources('services/df')) for (const m of readFileSync(file, 'utf8').matchAll(sends)) found.add(m[1]!);
  return found;
}

describe('the viewer socket documentation', () => {
  it('has its section', () => {
    expect(start).toBeGreaterThan(-1);
    expect(section.length).toBeGreaterThan(500);
  });

  it('lists every message type a viewer may send', () => {
    const accepted = ClientMessage.options.map((o) => o.shape.type.value);
    expect(accepted.length).toBeGreaterThan(5);
    expect(accepted.filter((t) => !tableTypes.has(t))).toEqual([]);
  });

  it('names every control action an input carries', () => {
    const actions = ControlAction.options.map((o) => o.shape.action.value);
    expect(actions).toContain('tap');
    expect(actions.filter((a) => !section.includes(`\`${a} `) && !section.includes(`\`${a}\``))).toEqual([]);
  });

  it('lists every message type the server sends', () => {
    const sent = [...sentTypes()];
    // The scan finds the sends it is meant to find.
    expect(sent).toEqual(expect.arrayContaining(['hello', 'frame', 'viewers', 'ack', 'error', 'ended', 'reservation', 'terminal.output']));
    expect(sent.filter((t) => !tableTypes.has(t))).toEqual([]);
  });

  it('names every close code the code uses literally', () => {
    const codes = new Set<string>();
    for (const file of sources('services/df/live')) for (const m of readFileSync(file, 'utf8').matchAll(/\.close\((4\d{3})\b/g)) codes.add(m[1]!);
    expect(codes.size).toBeGreaterThan(0);
    expect([...codes].filter((c) => !section.includes(c))).toEqual([]);
  });
});
