import { existsSync, readdirSync, readFileSync } from 'node:fs';

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
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile, or not ours to read
    }
    if (args.some((a) => a.startsWith(prefix))) found.push(pid);
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
