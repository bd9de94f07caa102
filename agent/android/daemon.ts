import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Duplex } from 'node:stream';
import { pushFile, shell, type AdbDevice } from './adb.js';

/** Where the agent keeps the programs it runs on a device. */
export const DEVICE_TMP = '/data/local/tmp';

const resolve = createRequire(import.meta.url).resolve;

/** A file of an installed npm package (`null` when the package or file is missing). */
export function packageFile(pkg: string, ...parts: string[]): string | null {
  try {
    const path = join(dirname(resolve(`${pkg}/package.json`)), ...parts);
    return existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

/** What a device is built for: its ABIs (preferred first) and SDK level. */
export interface DeviceBuild {
  abis: string[];
  sdk: number;
}

export async function deviceBuild(device: AdbDevice): Promise<DeviceBuild> {
  const props: Record<string, string | undefined> = await device.getProperties();
  const abi = (props['ro.product.cpu.abi'] ?? '').trim();
  const list = (props['ro.product.cpu.abilist'] ?? '').split(',').map((a: string) => a.trim());
  const preview = Number(props['ro.build.version.preview_sdk'] ?? '0') > 0 ? 1 : 0;
  return { abis: [...new Set([abi, ...list].filter(Boolean))], sdk: (Number(props['ro.build.version.sdk']) || 0) + preview };
}

/**
 * A long-running program on the device started through `shell:` (minicap, minitouch): its output is
 * kept, its pid read from it when it prints one, and it ends when the shell stream is closed or it is
 * killed. `socket` connects to the abstract socket it serves, retrying while it starts.
 */
export class DeviceDaemon {
  private output = '';
  private ended = false;
  private readonly endWaiters: (() => void)[] = [];
  pid: number | null = null;

  private constructor(
    private readonly device: AdbDevice,
    private readonly stream: Duplex,
  ) {
    stream.on('data', (chunk: Buffer) => {
      this.output = (this.output + chunk.toString('utf8')).slice(-4_000);
      const pid = /PID: (\d+)/.exec(this.output);
      if (pid && this.pid === null) this.pid = Number(pid[1]);
    });
    const end = () => {
      if (this.ended) return;
      this.ended = true;
      for (const w of this.endWaiters.splice(0)) w();
    };
    stream.on('end', end);
    stream.on('close', end);
    stream.on('error', end);
  }

  static async start(device: AdbDevice, command: string): Promise<DeviceDaemon> {
    return new DeviceDaemon(device, await device.shell(command));
  }

  /** What the program printed (its last lines), for a failure's reason. */
  get said(): string {
    return this.output.trim().split('\n').slice(-3).join(' ').slice(0, 300);
  }

  get running(): boolean {
    return !this.ended;
  }

  /**
   * Connects to `localabstract:<name>`; tries again (100 ms, doubling) while the program starts, and
   * gives up when it has ended or after `attempts` tries.
   */
  async socket(name: string, attempts = 8): Promise<Duplex> {
    let delay = 100;
    for (let i = 1; ; i++) {
      if (this.ended) throw new Error(this.said || 'it exited at once');
      try {
        return await this.device.openLocal(`localabstract:${name}`);
      } catch (err) {
        if (i >= attempts) throw new Error(`its socket did not open: ${(err as Error).message}`);
      }
      await this.endedWithin(delay);
      delay *= 2;
    }
  }

  /** Resolves after `ms`, or sooner when the program ends. */
  endedWithin(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.ended) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.endWaiters.push(done);
    });
  }

  /** Ends the program: `kill` by pid when known, and the shell stream closed. */
  async stop(): Promise<void> {
    const pid = this.pid;
    if (pid !== null && !this.ended) await shell(this.device, `kill ${pid}`).catch(() => undefined);
    this.stream.destroy();
  }
}

/** Pushes a local file unless this driver pushed the same file there already (`pushed`: device path → local file). */
export async function pushOnce(device: AdbDevice, pushed: Map<string, string>, local: string, remote: string, mode: number): Promise<void> {
  if (pushed.get(remote) === local) return;
  await pushFile(device, local, remote, mode);
  pushed.set(remote, local);
}

/** Removes what `pushOnce` pushed (a session leaves nothing in the device's temporary folder). */
export async function removePushed(device: AdbDevice, pushed: Map<string, string>): Promise<void> {
  const paths = [...pushed.keys()];
  pushed.clear();
  if (paths.length > 0) await shell(device, `rm -f ${paths.join(' ')}`);
}
