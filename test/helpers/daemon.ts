import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

/** A TCP port free on loopback right now. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** A store of a test's own that it stops and starts again. */
export interface Daemon {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A child process that is up once `ready` matches its output; stopped with SIGINT. */
export function daemon(command: string, args: string[], ready: RegExp, user?: { uid: number; gid: number }): Daemon {
  let child: ChildProcess | null = null;
  return {
    start: () =>
      new Promise((resolve, reject) => {
        const c = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}) });
        child = c;
        let out = '';
        const seen = (chunk: Buffer) => {
          out += chunk.toString();
          if (ready.test(out)) resolve();
        };
        c.stdout!.on('data', seen);
        c.stderr!.on('data', seen);
        c.once('exit', (code) => reject(new Error(`${command} exited (${code}): ${out.slice(-500)}`)));
      }),
    stop: async () => {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null) return;
      const exited = new Promise((resolve) => c.once('exit', resolve));
      c.kill('SIGINT');
      await exited;
    },
  };
}

export const REDIS_SERVER_AVAILABLE = existsSync('/usr/bin/redis-server');

/** A Redis of the test's own on `port`, without persistence: a restart comes back empty. */
export function redisServer(port: number): Daemon {
  return daemon('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], /Ready to accept connections/);
}
