import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkImports, resolveImport } from '../../scripts/check-imports.mjs';

/** A tiny repository on disk: the checker reads real files, so its resolution is tested as npm run check:imports uses it. */
let root: string;
const write = (files: Record<string, string>) => {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
};

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'check-imports-'));
  write({
    'package.json': JSON.stringify({ imports: { '#shared/*': './shared/*', '#services/*': './services/*' } }),
    'shared/plain.ts': 'export const x = 1;\n',
    'shared/view.tsx': 'export const v = 1;\n',
    'shared/dir/index.ts': 'export const d = 1;\n',
    'shared/comp/index.tsx': 'export const c = 1;\n',
    'scripts/tool.mjs': 'export const t = 1;\n',
    // Layers: events below services; a circle written without extensions; an import naming no file.
    'events/e.ts': "import { s } from '#services/s.js';\nexport const e = s;\n",
    'services/s.ts': "import { x } from '#shared/plain.js';\nexport const s = x;\n",
    'services/df/a/x.ts': "import { y } from '../b/y.js';\nimport { b } from '../b';\nimport { z } from '../core/z.js';\nexport const ax = [y, b, z];\n",
    'services/df/b/y.ts': 'export const y = 1;\n',
    'services/df/b/index.ts': "export { y as b } from './y.js';\n",
    'services/df/core/z.ts': 'export const z = 1;\n',
    // A shared package (a folder with an index.ts) is used through its index.ts; inside it, its files import each other.
    'shared/pkg/index.ts': "export { inner } from './inner.js';\n",
    'shared/pkg/inner.ts': "import { d } from '../dir/index.js';\nexport const inner = d;\n",
    'shared/pkg/other.ts': "import { inner } from './inner.js';\nexport const other = inner;\n",
    'services/face.ts': "import { inner } from '#shared/pkg/index.js';\nimport { other } from '#shared/pkg/other.js';\nexport const f = [inner, other];\n",
    'services/lost.ts': "import { n } from './nope.js';\nexport const l = n;\n",
    // dfctl: its own code, Node.js and ws only.
    'cli/dfctl/ok.ts': "import { readFileSync } from 'node:fs';\nimport { WebSocket } from 'ws';\nexport const ok = [readFileSync, WebSocket];\n",
    'cli/dfctl/bad.ts': "import chalk from 'chalk';\nimport { x } from '../../shared/plain.js';\nexport const bad = [chalk, x];\n",
    'cli/dfctl/debug-commands.ts': "import { hostname } from 'node:os';\nexport const commandFor = hostname;\n",
    // The console: its own files, the one dfctl module it may take, no Node.js built-in in its bundle.
    'console/src/a.tsx': "import { b } from './b';\nimport { commandFor } from '../../cli/dfctl/debug-commands';\nexport const a = [b, commandFor];\n",
    'console/src/b.tsx': "import { a } from './a';\nexport const b = () => a;\n",
    'console/src/c.ts': "import { ok } from '../../cli/dfctl/ok';\nexport const c = ok;\n",
  });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('resolving an import to a file', () => {
  const from = () => join(root, 'shared', 'here.ts');
  const resolved = (spec: string) => resolveImport(from(), spec, { root });

  it('finds a .ts or .tsx source written as .js, with no extension, or as a folder with index.ts or index.tsx', () => {
    expect(resolved('./plain.js')).toBe(join(root, 'shared/plain.ts'));
    expect(resolved('./plain')).toBe(join(root, 'shared/plain.ts'));
    expect(resolved('./view.js')).toBe(join(root, 'shared/view.tsx'));
    expect(resolved('./view')).toBe(join(root, 'shared/view.tsx'));
    expect(resolved('./dir')).toBe(join(root, 'shared/dir/index.ts'));
    expect(resolved('./dir/index.js')).toBe(join(root, 'shared/dir/index.ts'));
    expect(resolved('./comp')).toBe(join(root, 'shared/comp/index.tsx'));
    expect(resolved('../scripts/tool.mjs')).toBe(join(root, 'scripts/tool.mjs'));
  });

  it("follows package.json's # aliases", () => {
    expect(resolveImport(join(root, 'services/s.ts'), '#shared/plain.js', { root })).toBe(join(root, 'shared/plain.ts'));
    expect(resolveImport(join(root, 'services/s.ts'), '#shared/dir', { root })).toBe(join(root, 'shared/dir/index.ts'));
  });

  it('answers null for packages, Node.js built-ins and paths that name no file', () => {
    expect(resolved('preact/hooks')).toBeNull();
    expect(resolved('node:fs')).toBeNull();
    expect(resolved('./missing.js')).toBeNull();
  });
});

describe('the rules over a tree', () => {
  const result = () => checkImports(root);

  it('finds a circle of extensionless imports between .tsx files', () => {
    expect(result().circles).toEqual([['console/src/a.tsx', 'console/src/b.tsx']]);
  });

  it('lists each import against the layers: up the layers, outside dfctl, a Node.js built-in or a foreign file in the console', () => {
    expect(result().against.sort()).toEqual(
      [
        'events/e.ts -> services/s.ts',
        'cli/dfctl/bad.ts -> shared/plain.ts',
        "cli/dfctl/bad.ts -> chalk (package outside cli's ws, @qa-platform/client)",
        'console/src/c.ts -> cli/dfctl/ok.ts',
        'cli/dfctl/debug-commands.ts -> node:os (Node.js built-in in the console bundle)',
        'cli/dfctl/ok.ts -> node:fs (Node.js built-in in the console bundle)',
      ].sort(),
    );
  });

  it('reports a relative import that names no file instead of skipping it', () => {
    expect(result().unresolved).toEqual(['services/lost.ts -> ./nope.js']);
  });

  it("lists an import between two device features unless it goes through core/ or the feature's index.ts", () => {
    expect(result().features).toEqual(['services/df/a/x.ts -> services/df/b/y.ts']);
  });

  it("lists an import past a shared package's index.ts from outside the package, and nothing inside it", () => {
    expect(result().faces).toEqual(['services/face.ts -> shared/pkg/other.ts']);
  });
});
