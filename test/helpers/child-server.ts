import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { seedPglite } from './server.js';

export interface ChildServer {
  url: string;
  child: ChildProcess;
  /** JSON log lines seen so far. */
  logs: Record<string, unknown>[];
  /**
   * Resolves with the first log line (seen or to come) that matches; rejects when the process exits
   * first, or after `timeoutMs` (default 60 s; `Infinity`: only the exit ends the wait).
   */
  waitForLog(match: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What the process wrote to stderr so far. */
  stderr(): string;
}

/**
 * Starts `services/main.ts` as its own process, as `npm start` does, and waits until it listens;
 * `viaNpm` starts it through `npm start` itself (the process a user's signals reach). `startTimeoutMs`
 * bounds the wait for "listening" (default 60 s; `Infinity` waits until it listens or exits); `entry`
 * starts another script instead of `services/main.ts`. A `DATA_DIR` without a database gets a copy of the
 * template's (see `seedPglite`).
 */
export async function startChildServer(env: Record<string, string>, options: { viaNpm?: boolean; startTimeoutMs?: number; entry?: string } = {}): Promise<ChildServer> {
  // As for in-process servers: an embedded database copied from the template, unless the directory has one
  // (a restart) or the start goes through npm as a newcomer's would (which makes its own).
  if (!options.viaNpm && env.DATA_DIR && !env.DATABASE_URL) await seedPglite(env.DATA_DIR);
  const [command, args] = options.viaNpm ? ['npm', ['start', '--silent']] : [process.execPath, ['--import', 'tsx', options.entry ?? 'services/main.ts']];
  const child = spawn(command, args, {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  const waiters: { match: (l: Record<string, unknown>) => boolean; resolve: (l: Record<string, unknown>) => void }[] = [];
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  createInterface({ input: child.stdout! }).on('line', (text) => {
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return;
    }
    logs.push(line);
    for (const w of [...waiters]) {
      if (w.match(line)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const waitForLog: ChildServer['waitForLog'] = (match, timeoutMs = 60_000) => {
    const seen = logs.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const t = Number.isFinite(timeoutMs) ? setTimeout(() => reject(new Error(`log line not seen in ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`)), timeoutMs) : undefined;
      waiters.push({ match, resolve: (l) => (clearTimeout(t), resolve(l)) });
      void exited.then(({ code }) => reject(new Error(`server exited (${code}) before the log line; stderr: ${stderr.slice(-2000)}`)));
    });
  };
  const listening = await waitForLog((l) => l.msg === 'listening', options.startTimeoutMs);
  return { url: String(listening.url), child, logs, waitForLog, exited, stderr: () => stderr };
}
