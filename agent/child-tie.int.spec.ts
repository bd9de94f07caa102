import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { killAllWithArgument, processesWithArgument } from './child-tie.js';

/**
 * Finding a host's leftover processes by an argument: as Linux lists their command lines, NUL-separated
 * for most, one space-separated title for a process that rewrote it (Chromium's renderers, GPU and
 * network processes do, and a reaper that missed them left them writing into a profile it had deleted).
 */
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** A Node process that waits, started with `args`; with `title`, it rewrites its command line to that one string first. */
async function waiting(args: string[], title?: string): Promise<ChildProcess> {
  const script = `${title ? `process.title = ${JSON.stringify(title)};` : ''} process.stdout.write('ready'); setInterval(() => {}, 60000);`;
  // A long last argument leaves room for the new title, which Linux keeps within the original arguments' space.
  const child = spawn(process.execPath, ['-e', script, '--', ...args, 'x'.repeat(200)], { stdio: ['ignore', 'pipe', 'inherit'] });
  started.push(child);
  await once(child.stdout!, 'data');
  return child;
}

describe.runIf(process.platform === 'linux')('processes found by an argument', () => {
  it('finds a process by a NUL-separated argument, and not by the same text inside another argument', async () => {
    const root = `/tmp/child-tie-${randomUUID()}`;
    const named = await waiting([`--user-data-dir=${root}/profile-1`]);
    const inside = await waiting([`--note=--user-data-dir=${root}/profile-2`]);
    const found = processesWithArgument(`--user-data-dir=${root}/`);
    expect(found).toContain(named.pid);
    expect(found).not.toContain(inside.pid);
  });

  it('finds a process whose title is one space-separated string, as a Chromium child rewrites it', async () => {
    const root = `/tmp/child-tie-${randomUUID()}`;
    const renderer = await waiting([], `/usr/lib/chromium/chromium --type=renderer --user-data-dir=${root}/profile-1 --lang=en-US`);
    expect(processesWithArgument(`--user-data-dir=${root}/`)).toEqual([renderer.pid]);
  });

  it('kills every such process and answers once none of them is left running', async () => {
    const root = `/tmp/child-tie-${randomUUID()}`;
    const browser = await waiting([`--user-data-dir=${root}/profile-1`]);
    const renderer = await waiting([], `chromium --type=renderer --user-data-dir=${root}/profile-1`);
    const exits = [browser, renderer].map((child) => once(child, 'exit'));
    const killed = await killAllWithArgument(`--user-data-dir=${root}/`);
    expect(killed.sort()).toEqual([browser.pid, renderer.pid].sort());
    expect(processesWithArgument(`--user-data-dir=${root}/`)).toEqual([]);
    const signals = (await Promise.all(exits)).map(([, signal]) => signal as unknown);
    expect(signals).toEqual(['SIGKILL', 'SIGKILL']);
  });
});
