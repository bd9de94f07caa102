import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

/** The built bundle (scripts/build-dfctl.mjs); `ensureDfctlBuilt()` makes it when it is missing or stale. */
export const DFCTL_BUNDLE = resolve(import.meta.dirname, '..', '..', 'dist', 'dfctl', 'dfctl.cjs');

/** Builds dfctl unless the build is newer than its sources (as the console e2e tests build the console). */
export function ensureDfctlBuilt(): void {
  execFileSync(process.execPath, [resolve(import.meta.dirname, '..', '..', 'scripts', 'build-dfctl.mjs')], { stdio: 'inherit' });
}

/** A fresh, empty config file location for one caller (`DFCTL_CONFIG`). */
export function freshDfctlConfig(): string {
  return join(mkdtempSync(join(tmpdir(), 'dfctl-config-')), 'config.json');
}

export interface DfctlResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a dfctl run: the test's own, minus anything that would change what dfctl does
 * (a developer's DFCTL_* variables), plus `env`. DFCTL_CONFIG is fresh unless `env` names one.
 */
function environment(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('DFCTL_') && !k.startsWith('npm_')) base[k] = v;
  return { ...base, DFCTL_CONFIG: env.DFCTL_CONFIG ?? freshDfctlConfig(), ...env };
}

/**
 * Runs the built dfctl (`node dist/dfctl/dfctl.cjs ...args`) to its end; `input` is its standard
 * input (closed after). Pass the same `DFCTL_CONFIG` in `env` to keep a sign-in between runs.
 */
export function runDfctl(args: readonly string[], options: { env?: Record<string, string>; input?: string; timeoutMs?: number; bin?: string } = {}): Promise<DfctlResult> {
  const command = options.bin ? [options.bin, ...args] : [process.execPath, DFCTL_BUNDLE, ...args];
  const child = spawn(command[0]!, command.slice(1), { env: environment(options.env ?? {}), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.end(options.input ?? '');
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`dfctl ${args.join(' ')} did not finish in ${options.timeoutMs ?? 60_000} ms; stdout: ${stdout} stderr: ${stderr}`));
    }, options.timeoutMs ?? 60_000);
    child.once('error', (err) => (clearTimeout(timer), reject(err)));
    child.once('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

export interface SpawnedDfctl {
  child: ChildProcess;
  /** stdout and stderr lines so far, in order of arrival per stream. */
  lines: string[];
  /** Resolves with the first line (stdout or stderr, seen or to come) matching; rejects when dfctl exits first. */
  waitForLine(match: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code and output once dfctl exits. */
  exited: Promise<DfctlResult>;
  /** SIGTERM, then the exit. */
  stop(): Promise<DfctlResult>;
}

/** Starts a long-running dfctl command (`dfctl adb`, `dfctl forward`) in the background. */
export function spawnDfctl(args: readonly string[], options: { env?: Record<string, string> } = {}): SpawnedDfctl {
  const child = spawn(process.execPath, [DFCTL_BUNDLE, ...args], { env: environment(options.env ?? {}), stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let stdout = '';
  let stderr = '';
  const waiters = new Set<{ match: RegExp; resolve: (l: string) => void }>();
  const onLine = (line: string) => {
    lines.push(line);
    for (const w of [...waiters]) {
      if (w.match.test(line)) {
        waiters.delete(w);
        w.resolve(line);
      }
    }
  };
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  createInterface({ input: child.stdout! }).on('line', onLine);
  createInterface({ input: child.stderr! }).on('line', onLine);
  const exited = new Promise<DfctlResult>((resolvePromise) => child.once('close', (code) => resolvePromise({ code, stdout, stderr })));
  return {
    child,
    lines,
    exited,
    waitForLine(match, timeoutMs = 30_000) {
      const seen = lines.find((l) => match.test(l));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolvePromise, reject) => {
        const waiter = {
          match,
          resolve: (l: string) => {
            clearTimeout(timer);
            resolvePromise(l);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no dfctl line matched ${match} in ${timeoutMs} ms; lines: ${JSON.stringify(lines)}`));
        }, timeoutMs);
        waiters.add(waiter);
        void exited.then((r) => {
          if (!waiters.has(waiter)) return;
          waiters.delete(waiter);
          clearTimeout(timer);
          reject(new Error(`dfctl exited (${r.code}) before a line matched ${match}; stdout: ${r.stdout} stderr: ${r.stderr}`));
        });
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
