import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { setTimeout as pause } from 'node:timers/promises';

/**
 * Ties long-lived children to the agent's life. A child started through `setpriv --pdeathsig KILL`
 * (util-linux) is killed by the kernel the moment the agent's thread that started it dies, however it
 * dies: SIGKILL, the OOM killer, a crash. Without it a hard-killed agent leaves its browsers, Appium
 * and shells running, and the agent restarted after it starts new ones beside them.
 */
const SETPRIV = '/usr/bin/setpriv';
const available = process.platform === 'linux' && existsSync(SETPRIV);

/** The command and arguments that start `command` tied to this process (unchanged where setpriv is missing). */
export function tiedToAgent(command: string, args: readonly string[]): { command: string; args: string[] } {
  if (!available) return { command, args: [...args] };
  return { command: SETPRIV, args: ['--pdeathsig', 'KILL', '--', command, ...args] };
}

/** Running processes whose command line has an argument starting with `prefix` (Linux `/proc`; none elsewhere). */
export function processesWithArgument(prefix: string): number[] {
  if (process.platform !== 'linux') return [];
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    let line: string;
    try {
      // Arguments are NUL-separated, except where a process rewrote its title as one space-separated
      // string: Chromium's zygote-forked children (renderers, GPU, network service) do.
      line = ` ${readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ')}`;
    } catch {
      continue; // gone meanwhile, or not ours to read
    }
    if (line.includes(` ${prefix}`)) found.push(pid);
  }
  return found;
}

/** Kills (SIGKILL) every process whose command line names `prefix`; returns their pids. */
export function killProcessesWithArgument(prefix: string): number[] {
  const pids = processesWithArgument(prefix);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return pids;
}

/**
 * Kills every process whose command line names `prefix`, and looks again until a look finds none left: a
 * process killed while it forked leaves a child the first look did not see, and one that was killed is
 * still listed (and may still hold files open) until it has exited. Gives up after `timeoutMs` (a process
 * stuck in the kernel); returns every pid killed.
 */
export async function killAllWithArgument(prefix: string, timeoutMs = 5_000): Promise<number[]> {
  const killed = new Set<number>();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = killProcessesWithArgument(prefix);
    if (found.length === 0 || Date.now() > deadline) return [...killed, ...found.filter((pid) => !killed.has(pid))];
    for (const pid of found) killed.add(pid);
    await pause(20);
  }
}
