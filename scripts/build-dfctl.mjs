// Builds dfctl (cli/dfctl → dist/dfctl): one bundled CommonJS file with no dependencies
// (dfctl.cjs) and an npm package tarball of it (dfctl-<version>.tgz) that installs offline. Run by
// `npm install` (prepare) and `npm start`, skipped when the build is newer than every source;
// `--force` builds regardless. The server hands both out (GET /df/api/client-config/dfctl-manifest).
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sources = join(root, 'cli', 'dfctl');
/** The files of the platform dfctl takes: the history chain's verifier and a session evidence's, free of the platform's code. */
const SHARED = ['shared/audit/verify-chain.ts', 'shared/audit/session-evidence.ts', 'shared/audit/key-ring.ts'];
const out = join(root, 'dist', 'dfctl');
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const bundle = join(out, 'dfctl.cjs');
const tarball = join(out, `dfctl-${version}.tgz`);

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** True when a file is missing or older than the sources, this script or the version. */
export function dfctlStale() {
  if (!existsSync(bundle) || !existsSync(tarball)) return true;
  const inputs = [sources, ...SHARED.map((f) => join(root, f)), fileURLToPath(import.meta.url), join(root, 'package.json')];
  return Math.max(...inputs.map(newest)) > Math.min(statSync(bundle).mtimeMs, statSync(tarball).mtimeMs);
}

export async function buildDfctl({ force = false } = {}) {
  if (!existsSync(join(sources, 'main.ts'))) return false;
  if (!force && !dfctlStale()) return false;
  const { build } = await import('esbuild');
  const started = Date.now();
  mkdirSync(out, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'dfctl-build-'));
  try {
    const pkg = join(work, 'package');
    mkdirSync(join(pkg, 'bin'), { recursive: true });
    const built = join(pkg, 'bin', 'dfctl.cjs');
    const result = await build({
      entryPoints: [join(sources, 'main.ts')],
      metafile: true,
      absWorkingDir: root,
      outfile: built,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      // main.ts starts with its own #! line, which esbuild keeps.
      define: { __DFCTL_VERSION__: JSON.stringify(version) },
      // ws loads these native speed-ups only if they are installed, inside a try; the bundle goes without.
      external: ['bufferutil', 'utf-8-validate'],
      legalComments: 'eof',
      logLevel: 'warning',
    });
    // dfctl is Node.js built-ins and ws only: an import of the platform's own code (shared/, services/)
    // or of another package would ship the server's insides or grow the client unnoticed. Its API types
    // come from clients/api as type-only imports, which leave nothing in the bundle. ws is found in
    // whichever node_modules holds it (a git worktree's may link to another checkout's). SHARED names the
    // platform's files it may take.
    const foreign = Object.keys(result.metafile.inputs).filter((p) => !/^cli\/dfctl\//.test(p) && !SHARED.includes(p) && !/(^|\/)node_modules\/ws\//.test(p));
    if (foreign.length > 0) throw new Error(`dfctl may bundle only cli/dfctl and ws; it pulled in: ${foreign.join(', ')}`);
    chmodSync(built, 0o755);
    writeFileSync(
      join(pkg, 'package.json'),
      `${JSON.stringify(
        {
          name: 'dfctl',
          version,
          description: 'Command-line client of the device farm: sessions, adb and port tunnels, uploads',
          license: 'UNLICENSED',
          bin: { dfctl: 'bin/dfctl.cjs' },
          files: ['bin/'],
          engines: { node: '>=20' },
        },
        null,
        2,
      )}\n`,
    );
    writeFileSync(join(pkg, 'README.md'), `# dfctl ${version}\n\nThe device farm's command-line client. \`dfctl help\` lists its commands.\n`);
    // npm pack of a folder without dependencies needs no network.
    const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: pkg, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false', npm_config_ignore_scripts: 'true' } })
      .trim()
      .split('\n')
      .pop();
    // Written next to each other, then renamed into place, so the server never reads half a file.
    writeFileSync(`${bundle}.tmp`, readFileSync(built));
    chmodSync(`${bundle}.tmp`, 0o755);
    // Copied, not renamed, out of the temporary folder: it may be on another file system (a tmpfs /tmp).
    copyFileSync(join(work, packed), `${tarball}.tmp`);
    renameSync(`${bundle}.tmp`, bundle);
    renameSync(`${tarball}.tmp`, tarball);
    for (const name of readdirSync(out)) if (/^dfctl-.*\.tgz$/.test(name) && join(out, name) !== tarball) rmSync(join(out, name));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  process.stdout.write(`dfctl ${version} built in ${Date.now() - started} ms (dist/dfctl)\n`);
  return true;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildDfctl({ force: process.argv.includes('--force') });
}
