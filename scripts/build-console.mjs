// Builds the web console (console/ → console/dist) with Vite when the build is missing or older than
// its sources. Run by `npm install` (prepare) and `npm start`; `--force` builds regardless.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'console');
const built = join(root, 'dist', 'index.html');

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** True when console/dist is missing or older than any source of the console. */
export function consoleStale() {
  if (!existsSync(built)) return true;
  // Besides its own files, the console bundles dfctl's module of commands per debug target.
  const sources = ['src', 'index.html', 'vite.config.ts', 'public', '../cli/dfctl/debug-commands.ts'].map((p) => join(root, p)).filter(existsSync);
  return Math.max(...sources.map(newest)) > statSync(built).mtimeMs;
}

export async function buildConsole({ force = false } = {}) {
  if (!existsSync(join(root, 'index.html'))) return false;
  if (!force && !consoleStale()) return false;
  const { build } = await import('vite');
  const started = Date.now();
  await build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
  // Compressed once here, served as they are (the gateway's static serving picks .br or .gz).
  const assets = join(root, 'dist', 'assets');
  for (const name of readdirSync(assets).filter((n) => /\.(js|css)$/.test(n))) {
    const bytes = readFileSync(join(assets, name));
    writeFileSync(join(assets, `${name}.gz`), gzipSync(bytes, { level: 9 }));
    writeFileSync(join(assets, `${name}.br`), brotliCompressSync(bytes));
  }
  process.stdout.write(`web console built in ${Date.now() - started} ms (console/dist)\n`);
  return true;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildConsole({ force: process.argv.includes('--force') });
}
