// Compiles the platform's server (services/main.ts and everything of the repository it imports) into one
// ES module, dist/server/main.mjs, which `npm start` runs with plain Node: loading ~700 TypeScript files
// through a loader took most of a restart. Packages stay imports of node_modules (nothing of theirs is
// copied in). Run by `npm install` (prepare) and `npm start`, skipped when the bundle is newer than every
// file it was built from (their list is kept beside it), package.json and this script; `--force` builds
// regardless. Tests and `npm run agent` still run the TypeScript sources.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'server');
const bundle = join(out, 'main.mjs');
/** The repository's files the bundle was built from, relative to the root (esbuild's metafile inputs). */
const inputsFile = join(out, 'inputs.json');

/** True when the bundle is missing, one of its inputs changed or is gone, or the build's own settings did. */
export function serverStale() {
  if (!existsSync(bundle) || !existsSync(inputsFile)) return true;
  const builtAt = statSync(bundle).mtimeMs;
  const inputs = JSON.parse(readFileSync(inputsFile, 'utf8'));
  // A file newly imported is named by an import in a file that changed, so the old list is enough.
  for (const file of [...inputs, 'package.json', 'tsconfig.json', 'scripts/build-server.mjs']) {
    const path = join(root, file);
    if (!existsSync(path) || statSync(path).mtimeMs > builtAt) return true;
  }
  return false;
}

export async function buildServer({ force = false } = {}) {
  // An image's `npm ci` runs before the sources are copied in; the Dockerfile builds it after.
  if (!existsSync(join(root, 'services', 'main.ts'))) return false;
  if (!force && !serverStale()) return false;
  const { build } = await import('esbuild');
  const started = Date.now();
  // Built in a folder beside it, then swapped in whole (the bundle and its chunks belong together).
  const staging = `${out}.build`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const result = await build({
    entryPoints: [join(root, 'services', 'main.ts')],
    absWorkingDir: root,
    outdir: staging,
    // What the sources load only when used (the KurrentDB and Redis clients, the Android and iOS providers,
    // S3) stays a dynamic import of a chunk of its own: in one file, esbuild would hoist their packages'
    // imports to the top and every start would load them.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    target: 'node20',
    format: 'esm',
    // Function and class names as written, for stack traces and logs; a source map beside it for
    // `node --enable-source-maps` (off by default: it makes every stack trace slower to format).
    keepNames: true,
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  const inputs = Object.keys(result.metafile.inputs).filter((p) => !p.includes('node_modules/'));
  writeFileSync(join(staging, 'inputs.json'), `${JSON.stringify(inputs)}\n`);
  const previous = `${out}.old`;
  rmSync(previous, { recursive: true, force: true });
  if (existsSync(out)) renameSync(out, previous);
  renameSync(staging, out);
  rmSync(previous, { recursive: true, force: true });
  process.stdout.write(`server built in ${Date.now() - started} ms (dist/server, ${inputs.length} files)\n`);
  return true;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildServer({ force: process.argv.includes('--force') });
}
