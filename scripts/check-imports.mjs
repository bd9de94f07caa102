#!/usr/bin/env node
// The import rules of docs/architecture.md, checked over every folder of code: outside tests, no import
// circle, and no import against the layers (LAYERS below: which folders each folder may import, which
// packages the dfctl bundle and the console's browser bundle may take). Exits 1 and lists every offending
// import or circle; CI runs it (`npm run check:imports`).
//
// `--features` also lists the imports between two device features (services/df/<a>/ → services/df/<b>/
// other than through services/df/core/ or services/df/<b>/index.ts) with their count; it exits 1 for
// them only with `--strict-features`, which `npm run check:imports` and CI pass.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Each folder of code and what it may import besides itself. `folders`: other top-level folders;
 * `files`: single files elsewhere (paths from the root); `packages`: the only npm packages allowed
 * (absent: any); `builtins: false`: no Node.js built-in, in the folder and in everything it imports.
 */
export const LAYERS = {
  shared: { folders: [] },
  events: { folders: ['shared'] },
  projections: { folders: ['shared', 'events'] },
  agent: { folders: ['shared', 'events'] },
  services: { folders: ['shared', 'events', 'projections', 'agent'] },
  // dfctl ships as one bundle of its own code, Node.js and ws (scripts/build-dfctl.mjs refuses more);
  // it takes the API's types from the typed client (type-only imports, which the bundle drops).
  // It also takes the chain's verifier and a session evidence's, which are free of the platform's code (Node.js only).
  cli: { folders: [], files: ['shared/audit/verify-chain.ts', 'shared/audit/session-evidence.ts', 'shared/audit/key-ring.ts'], packages: ['ws', '@qa-platform/client'] },
  // A browser bundle: no Node.js built-in anywhere in what it loads, and of the rest of the repository
  // only the files named here, which must themselves stay free of the platform's code.
  console: { dir: 'console/src', folders: [], files: ['cli/dfctl/debug-commands.ts'], builtins: false },
  // The typed client: its generated types and a fetch client over openapi-fetch, for browsers and Node.js alike.
  'clients/api': { folders: [], packages: ['openapi-fetch'], builtins: false },
  test: { folders: ['shared', 'events', 'projections', 'agent', 'services', 'cli'] },
  bench: { folders: ['shared', 'events', 'projections', 'agent', 'services', 'cli', 'test'] },
  scripts: { folders: ['shared', 'events', 'projections', 'agent', 'services', 'cli', 'test'], extensions: ['.mjs'] },
};

/** Device features: folders under here import each other only through `core/` or the other's `index.ts`. */
export const FEATURE_ROOT = 'services/df';
const FEATURE_CORE = 'core';

const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const isBuiltin = (spec) => spec.startsWith('node:') || NODE_BUILTINS.has(spec.split('/')[0]) || NODE_BUILTINS.has(spec);
/** `@scope/name/x` → `@scope/name`, `name/x` → `name`. */
const packageOf = (spec) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');

const isFile = (path) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** The `#alias/*` prefixes of package.json's `imports`, as [prefix, folder] pairs. */
export function aliasesOf(root) {
  const pkg = join(root, 'package.json');
  const imports = existsSync(pkg) ? (JSON.parse(readFileSync(pkg, 'utf8')).imports ?? {}) : {};
  return Object.entries(imports).map(([from, to]) => [from.replace('*', ''), String(to).replace('*', '')]);
}

/**
 * The file an import names, as TypeScript and the bundlers find it: the path itself, `.js`/`.jsx`/`.mjs`
 * written for a `.ts`/`.tsx`/`.mts` source, no extension (`.ts`, `.tsx`, `.mts`, `.mjs`, `.js`), or a
 * folder's `index.ts`/`index.tsx`. Null for a package or Node.js built-in, and for a path that names no file.
 */
export function resolveImport(from, spec, { root, aliases = aliasesOf(root) }) {
  const alias = aliases.find(([prefix]) => spec.startsWith(prefix));
  let base;
  if (alias) base = join(root, alias[1], spec.slice(alias[0].length));
  else if (spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..') base = resolve(dirname(from), spec);
  else return null;
  const stem = base.replace(/\.(?:js|jsx|mjs)$/, '');
  const written = stem !== base ? [base, `${stem}.ts`, `${stem}.tsx`, `${stem}${base.endsWith('.mjs') ? '.mts' : '.ts'}`] : [base];
  const bare = ['.ts', '.tsx', '.mts', '.mjs', '.js'].map((ext) => `${base}${ext}`);
  const index = ['index.ts', 'index.tsx'].map((name) => join(base, name));
  return [...written, ...bare, ...index].find(isFile) ?? null;
}

/** Every module specifier a source names: static imports and re-exports, side-effect imports, `import(…)`. */
const IMPORT = /(?:^|\n)\s*(?:import|export)\s(?:[^;'"`]|'[^']*'(?!\s*;)|"[^"]*"(?!\s*;))*?\bfrom\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;
export const specifiersOf = (text) => [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]);

/** A folder's code, outside tests and declarations. */
function sources(dir, extensions, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, extensions, out);
    else if (extensions.some((ext) => name.endsWith(ext)) && !/\.d\.m?ts$|\.spec\.tsx?$|\.contract\.ts$/.test(name)) out.push(path);
  }
  return out;
}

/** Strongly connected components with more than one file (Tarjan), iteratively so deep graphs cannot overflow the stack. */
function circlesOf(edges) {
  const circles = [];
  let next = 0;
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const enter = (v) => { index.set(v, next); low.set(v, next); next++; stack.push(v); onStack.add(v); };
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work = [[start, [...edges.get(start)], 0]];
    enter(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const [v, targets] = frame;
      if (frame[2] < targets.length) {
        const w = targets[frame[2]++];
        if (!index.has(w)) {
          enter(w);
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
  return circles;
}

/** `services/df/<feature>/…` → the feature; null for a file directly under services/df or elsewhere. */
function featureOf(path) {
  if (!path.startsWith(`${FEATURE_ROOT}/`)) return null;
  const parts = path.slice(FEATURE_ROOT.length + 1).split('/');
  return parts.length > 1 ? parts[0] : null;
}

/**
 * Checks the code under `root` (paths in the result are relative to it, with `/`): `circles` (each a
 * sorted list of files), `against` (imports against the layers), `unresolved` (a relative or `#` import
 * naming no file: a resolution the rules would silently skip), `features` (imports between device features).
 */
export function checkImports(root, layers = LAYERS) {
  const aliases = aliasesOf(root);
  const rel = (f) => relative(root, f).split(sep).join('/');
  const layerOf = new Map();
  for (const [name, layer] of Object.entries(layers)) {
    for (const file of sources(join(root, layer.dir ?? name), ['.ts', '.tsx', ...(layer.extensions ?? [])])) layerOf.set(rel(file), name);
  }
  const files = [...layerOf.keys()];
  const edges = new Map();
  const bare = new Map();
  const unresolved = [];
  for (const file of files) {
    const targets = new Set();
    const packages = new Set();
    for (const spec of specifiersOf(readFileSync(join(root, file), 'utf8'))) {
      const target = resolveImport(join(root, file), spec, { root, aliases });
      if (target) { if (layerOf.has(rel(target))) targets.add(rel(target)); }
      else if (spec.startsWith('.') || spec.startsWith('#')) {
        if (!/\.(?:css|json|svg|png|html|txt)$/.test(spec)) unresolved.push(`${file} -> ${spec}`);
      } else packages.add(spec);
    }
    edges.set(file, targets);
    bare.set(file, packages);
  }

  const against = [];
  for (const [file, targets] of edges) {
    const a = layerOf.get(file);
    const rule = layers[a];
    for (const target of targets) {
      const b = layerOf.get(target);
      if (a !== b && !rule.folders.includes(b) && !(rule.files ?? []).includes(target)) against.push(`${file} -> ${target}`);
    }
    for (const spec of bare.get(file)) {
      if (rule.packages && !isBuiltin(spec) && !rule.packages.includes(packageOf(spec))) against.push(`${file} -> ${spec} (package outside ${a}'s ${rule.packages.join(', ')})`);
    }
  }
  // What a browser bundle loads: its own files and everything they import, none of it Node.js built-ins.
  for (const [name, rule] of Object.entries(layers)) {
    if (rule.builtins !== false) continue;
    const seen = new Set(files.filter((f) => layerOf.get(f) === name));
    for (const file of seen) for (const target of edges.get(file)) seen.add(target);
    for (const file of seen) {
      for (const spec of bare.get(file)) if (isBuiltin(spec)) against.push(`${file} -> ${spec} (Node.js built-in in the ${name} bundle)`);
    }
  }

  const features = [];
  for (const [file, targets] of edges) {
    const a = featureOf(file);
    if (!a) continue;
    for (const target of targets) {
      const b = featureOf(target);
      if (b && b !== a && b !== FEATURE_CORE && target !== `${FEATURE_ROOT}/${b}/index.ts`) features.push(`${file} -> ${target}`);
    }
  }

  // A package of shared/ (a folder with an index.ts) is used through its face, its index.ts: what it
  // offers is listed in one file, and its inner files may move without touching their users.
  const faces = [];
  for (const [file, targets] of edges) {
    for (const target of targets) {
      const m = target.match(/^shared\/([^/]+)\/(.+)$/);
      if (!m || m[2] === 'index.ts' || file.startsWith(`shared/${m[1]}/`)) continue;
      if (existsSync(join(root, 'shared', m[1], 'index.ts'))) faces.push(`${file} -> ${target}`);
    }
  }

  const circles = circlesOf(edges).map((c) => c.sort());
  return { files, circles, against, unresolved, features, faces };
}

function main(argv) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const strictFeatures = argv.includes('--strict-features');
  const listFeatures = strictFeatures || argv.includes('--features');
  const { files, circles, against, unresolved, features, faces } = checkImports(root);
  for (const c of circles) console.log(`circle: ${c.join(', ')}`);
  for (const a of against) console.log(`against the layers: ${a}`);
  for (const u of unresolved) console.log(`unresolved: ${u}`);
  if (listFeatures) for (const f of features) console.log(`between device features: ${f}`);
  if (listFeatures) for (const f of faces) console.log(`past a shared package's index.ts: ${f}`);
  console.log(`imports: ${files.length} files, ${circles.length} circles, ${against.length} imports against the layers, ${unresolved.length} unresolved`);
  console.log(
    `device features: ${features.length} imports between two features (through neither ${FEATURE_ROOT}/${FEATURE_CORE}/ nor the feature's index.ts)` +
      (strictFeatures ? '' : '; not enforced (--strict-features)'),
  );
  console.log(`shared packages: ${faces.length} imports past a package's index.ts` + (strictFeatures ? '' : '; not enforced (--strict-features)'));
  const failed = circles.length || against.length || unresolved.length || (strictFeatures && (features.length || faces.length));
  return failed ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(main(process.argv.slice(2)));
