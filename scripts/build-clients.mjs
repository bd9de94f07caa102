// Builds the client packages (clients/api, clients/wdio-service, clients/playwright-fixture): each to ESM
// JavaScript and .d.ts in its own dist/ (the TypeScript compiler), then an npm tarball of each into
// dist/clients (<name>-<version>.tgz, `@qa-platform/client` → qa-platform-client-0.1.0.tgz). Run by
// `npm install` (prepare) and `npm start`, skipped when the build is newer than every source; `--force`
// builds regardless. The server hands the tarballs out (GET /df/api/client-config/packages-manifest).
//
// Inside the repository the packages resolve to their sources (the `qa-platform-source` export condition,
// set in tsconfig.json, vitest.config.ts and the runners' NODE_OPTIONS), so nothing there waits for this build.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'clients');
/** In build order: the other two import the client's built types. */
export const CLIENT_PACKAGES = ['api', 'wdio-service', 'playwright-fixture'];
/** The export condition under which the repository resolves a package to its TypeScript sources. */
const SOURCE_CONDITION = 'qa-platform-source';

const manifestOf = (dir) => JSON.parse(readFileSync(join(root, 'clients', dir, 'package.json'), 'utf8'));
/** npm pack's file name: the scope's @ dropped and its / made a dash. */
export const tarballName = (pkg) => `${pkg.name.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`;

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** True when a tarball is missing or older than its package's sources, package.json, README or this script. */
export function clientsStale() {
  return CLIENT_PACKAGES.some((dir) => {
    const tarball = join(out, tarballName(manifestOf(dir)));
    if (!existsSync(tarball)) return true;
    const inputs = ['src', 'package.json', 'README.md'].map((p) => join(root, 'clients', dir, p)).filter(existsSync);
    return Math.max(...[...inputs, fileURLToPath(import.meta.url)].map(newest)) > statSync(tarball).mtimeMs;
  });
}

/** Compiles one package's src/ into its dist/; throws with the compiler's messages on an error. */
function compile(ts, dir) {
  const pkgDir = join(root, 'clients', dir);
  const dist = join(pkgDir, 'dist');
  rmSync(dist, { recursive: true, force: true });
  const program = ts.createProgram([join(pkgDir, 'src', 'index.ts')], {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noUncheckedIndexedAccess: true,
    noImplicitOverride: true,
    esModuleInterop: true,
    skipLibCheck: true,
    verbatimModuleSyntax: true,
    types: ['node'],
    declaration: true,
    sourceMap: false,
    rootDir: join(pkgDir, 'src'),
    outDir: dist,
    // No source condition: a package that imports the client compiles against the client's built
    // .d.ts, as it will be installed.
  });
  const result = program.emit();
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
  if (diagnostics.length > 0) {
    const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
    throw new Error(`clients/${dir} does not compile:\n${ts.formatDiagnostics(diagnostics, host)}`);
  }
  // Its own sources, packages, and another client package's built types (as installed): never the
  // platform's code (shared/, services/) nor another package's sources, which the tarball would not carry.
  const own = join(pkgDir, 'src');
  const foreign = program.getSourceFiles().map((f) => f.fileName).filter((f) => !f.includes('/node_modules/') && !f.startsWith(own) && !/\/clients\/[^/]+\/dist\/[^/]+\.d\.ts$/.test(f));
  if (foreign.length > 0) throw new Error(`clients/${dir} may compile only its own sources; it pulled in: ${foreign.join(', ')}`);
}

/** The package as published: its package.json without the repository's source condition, dist/, README. */
function stage(dir, work) {
  const pkgDir = join(root, 'clients', dir);
  const pkg = manifestOf(dir);
  for (const entry of Object.values(pkg.exports ?? {})) if (typeof entry === 'object') delete entry[SOURCE_CONDITION];
  const staged = join(work, dir);
  mkdirSync(staged, { recursive: true });
  cpSync(join(pkgDir, 'dist'), join(staged, 'dist'), { recursive: true });
  if (existsSync(join(pkgDir, 'README.md'))) cpSync(join(pkgDir, 'README.md'), join(staged, 'README.md'));
  writeFileSync(join(staged, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  return { staged, pkg };
}

export async function buildClients({ force = false } = {}) {
  if (!CLIENT_PACKAGES.every((dir) => existsSync(join(root, 'clients', dir, 'src', 'index.ts')))) return false;
  if (!force && !clientsStale()) return false;
  // TypeScript is a development dependency: an install without them (`npm ci --omit=dev`) builds no
  // packages rather than failing, and the server answers 503 CLIENTS_NOT_BUILT for them.
  const ts = await import('typescript').then((m) => m.default, () => null);
  if (!ts) {
    process.stdout.write('client packages not built: TypeScript is not installed (npm run build:clients after a full npm install)\n');
    return false;
  }
  const started = Date.now();
  mkdirSync(out, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'clients-build-'));
  try {
    const packed = [];
    for (const dir of CLIENT_PACKAGES) {
      compile(ts, dir);
      const { staged, pkg } = stage(dir, work);
      // npm pack reads the folder only: no network, no install.
      const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: staged, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false', npm_config_ignore_scripts: 'true' } })
        .trim()
        .split('\n')
        .pop();
      if (name !== tarballName(pkg)) throw new Error(`npm pack named ${pkg.name}'s tarball ${name}, not ${tarballName(pkg)}`);
      packed.push(name);
    }
    // Copied next to their place (the temporary folder may be on another file system, a tmpfs /tmp), then
    // renamed into place one by one, so the server never reads half a file.
    for (const name of packed) {
      copyFileSync(join(work, name), join(out, `${name}.tmp`));
      renameSync(join(out, `${name}.tmp`), join(out, name));
    }
    for (const name of readdirSync(out)) if (name.endsWith('.tgz') && !packed.includes(name)) rmSync(join(out, name));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  process.stdout.write(`client packages built in ${Date.now() - started} ms (dist/clients)\n`);
  return true;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildClients({ force: process.argv.includes('--force') });
}
