import { spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where `freePort()` picks from: below the system's ephemeral range, never under 20000. */
const NAMED_PORTS_FROM = 20_000;

/** The lowest port the system hands out by itself (`listen(0)`, outgoing connections); 32768 where it does not say. */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/** Listens on `port` (0: any) on loopback and closes again: the port it got, or null when it was taken. */
const probe = (port: number) =>
  new Promise<number | null>((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(null));
    s.listen(port, '127.0.0.1', () => {
      const { port: got } = s.address() as { port: number };
      s.close(() => resolve(got));
    });
  });

/**
 * A TCP port free on loopback right now, for a server a test starts on a port it names (an adb server,
 * a Redis, NATS or PostgreSQL of its own, often stopped and started again on the same port). Picked at
 * random below the system's ephemeral range, where no `listen(0)` and no outgoing connection of any
 * test file running at the same time takes ports, so a port released for a restart stays free.
 */
export async function freePort(): Promise<number> {
  const top = ephemeralLow() - 1;
  for (let attempt = 0; top - NAMED_PORTS_FROM >= 1_000 && attempt < 100; attempt++) {
    const got = await probe(NAMED_PORTS_FROM + randomInt(top - NAMED_PORTS_FROM + 1));
    if (got !== null) return got;
  }
  return (await probe(0))!;
}

/**
 * A child's log (its stderr, where nats-server writes) as it comes: `next(pattern)` resolves with the
 * first match in what it writes from the call on (fails if the process exits first), so a test waits
 * for what the server says it did.
 */
export function followLog(child: ChildProcess) {
  let log = '';
  let from = 0;
  const waiters = new Set<() => void>();
  child.stderr!.on('data', (chunk: Buffer) => {
    log += chunk.toString();
    for (const wake of waiters) wake();
  });
  return {
    next(pattern: RegExp): Promise<RegExpExecArray> {
      const start = from;
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = pattern.exec(log.slice(start));
          if (!m) return;
          from = start + m.index + m[0].length;
          waiters.delete(check);
          child.off('exit', exited);
          resolve(m);
        };
        const exited = (code: number | null) => {
          waiters.delete(check);
          reject(new Error(`the process exited (${code}): ${log.slice(-2_000)}`));
        };
        waiters.add(check);
        child.once('exit', exited);
        check();
      });
    },
  };
}

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

export const NATS_SERVER = existsSync('/usr/sbin/nats-server') ? '/usr/sbin/nats-server' : 'nats-server';

/** A nats-server of the caller's own, with JetStream, on a port the server picked; `stop()` ends it and removes its store. */
export interface NatsServer {
  port: number;
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a nats-server of the test's own on a loopback port it picks itself (`-p -1`, read back from its
 * log), so no other file's servers ever share its subjects or queue groups.
 */
export async function startNatsServer(): Promise<NatsServer> {
  const store = mkdtempSync(join(tmpdir(), 'qa-nats-'));
  const child = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', '-1', '-js', '-sd', store], { stdio: ['ignore', 'ignore', 'pipe'] });
  let running = true;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  }).then(() => {
    running = false;
  });
  const stop = async () => {
    if (running) child.kill('SIGINT');
    await exited;
    rmSync(store, { recursive: true, force: true });
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let log = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        const m = /Listening for client connections on [\d.]+:(\d+)/.exec(log);
        if (m) resolve(Number(m[1]));
      });
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`nats-server exited (${code}): ${log.slice(-500)}`)));
    });
    child.stderr!.resume();
    return { port, url: `nats://127.0.0.1:${port}`, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
