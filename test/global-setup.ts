import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statfsSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Tests never write into the repository (pictures under docs/console come from
 * scripts/console-screenshots.ts; everything else goes to temporary directories). The state of the
 * working tree — `git status --porcelain` and the bytes of every file it lists — is taken before the run
 * and compared after it: a file the run created, changed or deleted fails the run, naming the file.
 * Changes that were there before the run (work in progress) are left alone. Without git (an exported
 * tree) there is nothing to compare.
 */
type TreeState = Map<string, string>;

export function treeState(root: string): TreeState | null {
  let porcelain: string;
  try {
    porcelain = execFileSync('git', ['status', '--porcelain=v1', '-z', '--untracked-files=all'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
  const state: TreeState = new Map();
  const entries = porcelain.split('\0').filter(Boolean);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    const status = entry.slice(0, 2);
    const path = entry.slice(3);
    // A rename or copy is followed by its source path.
    if (status.includes('R') || status.includes('C')) i++;
    state.set(path, `${status} ${fingerprint(join(root, path))}`);
  }
  return state;
}

function fingerprint(file: string): string {
  try {
    return statSync(file).isFile() ? createHash('sha256').update(readFileSync(file)).digest('hex') : 'not a file';
  } catch {
    return 'absent';
  }
}

/** The paths whose state differs between two snapshots. */
export function changedPaths(before: TreeState, after: TreeState): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((p) => before.get(p) !== after.get(p)).sort();
}

/**
 * The builds that end-to-end files run before they start (the web console for the console files, dfctl
 * for the dfctl files, the client packages for their packaging file, the server's bundle for the file that
 * runs `npm start`), made once here, before any file runs: files run in parallel, and two builds at
 * once would write into the same directory (console/dist, dist/dfctl, dist/clients, dist/server) while a third file's server reads
 * it. Each build is skipped when it is newer than its sources, so the files' own calls then find nothing
 * to do. A build that fails is left for the files that need it to report.
 */
export function buildWhatFilesShare(root: string): void {
  for (const script of ['scripts/build-console.mjs', 'scripts/build-dfctl.mjs', 'scripts/build-clients.mjs', 'scripts/build-server.mjs']) {
    try {
      execFileSync(process.execPath, [script], { cwd: root, stdio: 'inherit' });
    } catch {
      process.stderr.write(`\n${script} failed before the run; the files that need it will report it\n`);
    }
  }
}

/** Free bytes a memory file system needs to be chosen for the run's temporary files. */
const MEMORY_TMP_MIN_FREE = 4 * 1024 ** 3;

/**
 * The run's temporary files (each server's PGlite data directory copied from its template, browsers'
 * profiles, staged apps) go to a folder of their own on the machine's memory file system, `/dev/shm`, when
 * it has room and `TMPDIR` was not given: copying a 1,400-file data directory and removing it took 6.5 s
 * and 2.5 s on CI's disk with Node's `cpSync`/`rmSync`, against 0.35 s and 0.1 s there, and every
 * end-to-end file starts at least one server. Set before any worker starts, so every file and every
 * program a test spawns inherits it; removed, with whatever a test left in it, when the run ends.
 * Returns the folder made, or null when the run keeps the system's.
 */
export function useMemoryTmp(env: NodeJS.ProcessEnv = process.env, base = '/dev/shm'): string | null {
  if (env.TMPDIR) return null;
  try {
    const fs = statfsSync(base);
    if (fs.bavail * fs.bsize < MEMORY_TMP_MIN_FREE) return null;
    const dir = mkdtempSync(join(base, 'qa-tests-'));
    // Open to every user as /tmp is (sticky): tests run servers as other users (PostgreSQL as postgres).
    chmodSync(dir, 0o1777);
    env.TMPDIR = dir;
    return dir;
  } catch {
    return null;
  }
}

export default function setup(): () => void {
  const root = process.cwd();
  const before = treeState(root);
  const tmp = useMemoryTmp();
  buildWhatFilesShare(root);
  return () => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    if (!before) return;
    const after = treeState(root);
    if (!after) return;
    // Screenshots for the docs are written into docs/images/ when asked (WRITE_DOCS_SCREENSHOTS=1), and only then.
    const asked = process.env.WRITE_DOCS_SCREENSHOTS === '1';
    const changed = changedPaths(before, after).filter((p) => !(asked && p.startsWith('docs/images/')));
    if (changed.length > 0) {
      // Vitest reports an error thrown here but keeps its exit status: the status is set here.
      process.stderr.write(`\nThe test run wrote into the repository (tests must write to temporary directories): ${changed.join(', ')}\n`);
      process.exitCode = 1;
    }
  };
}
