#!/usr/bin/env node
// The layering rule of docs/architecture.md, checked: outside tests, no import circle, and no import
// that runs up the layers (shared < events < projections, agent < services). Exits 1 and lists every
// offending import or circle; CI runs it (`npm run check:imports`).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const LAYERS = { shared: 0, events: 1, projections: 2, agent: 2, services: 3 };
/** Which top-level folders each layer may import from (besides itself). */
const MAY_IMPORT = {
  shared: [],
  events: ['shared'],
  projections: ['shared', 'events'],
  agent: ['shared', 'events'],
  services: ['shared', 'events', 'projections', 'agent'],
};
const aliases = Object.entries(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).imports ?? {}).map(
  ([from, to]) => [from.replace('*', ''), String(to).replace('*', '')],
);

const isSource = (name) => /\.tsx?$/.test(name) && !/\.d\.ts$|\.spec\.tsx?$|\.contract\.ts$/.test(name);
function sources(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (isSource(name)) out.push(path);
  }
  return out;
}

const files = Object.keys(LAYERS).filter((top) => existsSync(join(root, top))).flatMap((top) => sources(join(root, top)));
const known = new Set(files);

function resolveImport(from, spec) {
  const alias = aliases.find(([prefix]) => spec.startsWith(prefix));
  let base;
  if (alias) base = join(root, alias[1], spec.slice(alias[0].length));
  else if (spec.startsWith('.')) base = resolve(dirname(from), spec);
  else return null;
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((c) => known.has(c)) ?? null;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s(?:[^;'"`]|'[^']*'(?!\s*;)|"[^"]*"(?!\s*;))*?\bfrom\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;
const edges = new Map();
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const targets = new Set();
  for (const m of text.matchAll(IMPORT)) {
    const target = resolveImport(file, m[1] ?? m[2] ?? m[3]);
    if (target) targets.add(target);
  }
  edges.set(file, targets);
}

const rel = (f) => relative(root, f);
const layerOf = (f) => rel(f).split('/')[0];
const against = [];
for (const [file, targets] of edges) {
  for (const target of targets) {
    const a = layerOf(file);
    const b = layerOf(target);
    if (a !== b && !MAY_IMPORT[a].includes(b)) against.push(`${rel(file)} -> ${rel(target)}`);
  }
}

// Strongly connected components (Tarjan), iteratively so deep graphs cannot overflow the stack.
const circles = [];
{
  let next = 0;
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work = [[start, [...edges.get(start)], 0]];
    index.set(start, next); low.set(start, next); next++; stack.push(start); onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const [v, targets] = frame;
      if (frame[2] < targets.length) {
        const w = targets[frame[2]++];
        if (!index.has(w)) {
          index.set(w, next); low.set(w, next); next++; stack.push(w); onStack.add(w);
          work.push([w, [...(edges.get(w) ?? [])], 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
        continue;
      }
      work.pop();
      if (work.length) { const parent = work[work.length - 1][0]; low.set(parent, Math.min(low.get(parent), low.get(v))); }
      if (low.get(v) === index.get(v)) {
        const component = [];
        let w;
        do { w = stack.pop(); onStack.delete(w); component.push(w); } while (w !== v);
        if (component.length > 1) circles.push(component);
      }
    }
  }
}

for (const c of circles) console.log(`circle: ${c.map(rel).sort().join(', ')}`);
for (const a of against) console.log(`against the layers: ${a}`);
console.log(`imports: ${files.length} files, ${circles.length} circles, ${against.length} imports against the layers`);
process.exit(circles.length || against.length ? 1 : 0);
