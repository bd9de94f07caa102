/*
 * `/df/debug-tunnel` cost: the same transfers over a direct loopback TCP connection and through the
 * tunnel (client WebSocket → gateway → agent data plane → the device's TCP port, here a simulated
 * device whose `tcp_forward` reaches a loopback port of the agent's machine). Throughput both ways
 * (bulk bytes, acknowledged at the end) and the round trip of one byte, measured in alternating runs
 * so machine noise falls on both paths alike.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { phase, table } from './console.js';
import { benchServerEnv, signIn } from './server.js';
import { distribution, type Distribution } from './stats.js';

export interface TunnelOptions {
  /** Bytes per bulk transfer. */
  bytes: number;
  /** Alternating runs per path and direction. */
  runs: number;
  /** One-byte round trips per path. */
  roundTrips: number;
  warmup: number;
}

export interface TunnelReport {
  bytes: number;
  runs: number;
  /** MB/s (10^6 bytes), best of the runs per path. */
  upload: { direct: number; tunnel: number; ratio: number };
  download: { direct: number; tunnel: number; ratio: number };
  roundTrip: { direct: Distribution; tunnel: Distribution; addedP50Ms: number };
}

const CHUNK = 64 * 1024;

/**
 * The device's service: `U` + 8-byte length → reads that many bytes, answers `K`; `D` + length →
 * sends that many bytes; `P` → echoes every later byte (round trips).
 */
function startSink(): Promise<{ server: Server; port: number }> {
  const payload = Buffer.alloc(CHUNK, 0x5a);
  const server = createServer((socket: Socket) => {
    socket.setNoDelay(true);
    let mode: 'head' | 'upload' | 'echo' = 'head';
    let head = Buffer.alloc(0);
    let left = 0;
    const download = (length: number) => {
      let sent = 0;
      const pump = () => {
        while (sent < length) {
          const n = Math.min(CHUNK, length - sent);
          sent += n;
          if (!socket.write(n === CHUNK ? payload : payload.subarray(0, n))) {
            socket.once('drain', pump);
            return;
          }
        }
      };
      pump();
    };
    socket.on('data', (data: Buffer) => {
      if (mode === 'echo') {
        socket.write(data);
        return;
      }
      if (mode === 'upload') {
        left -= data.length;
        if (left <= 0) {
          socket.write('K');
          mode = 'head';
        }
        return;
      }
      head = Buffer.concat([head, data]);
      const command = String.fromCharCode(head[0]!);
      if (command === 'P') {
        mode = 'echo';
        if (head.length > 1) socket.write(head.subarray(1));
        return;
      }
      if (head.length < 9) return;
      const length = Number(head.readBigUInt64BE(1));
      const rest = head.length - 9;
      head = Buffer.alloc(0);
      if (command === 'D') {
        download(length);
        return;
      }
      mode = 'upload';
      left = length - rest;
      if (left <= 0) {
        socket.write('K');
        mode = 'head';
      }
    });
    socket.on('error', () => socket.destroy());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port })));
}

/**
 * The platform as `npm start` runs it, in a process of its own: the tunnel's client (a desk) and its
 * device end are not in the gateway's process in real use, so they are not here either.
 */
async function startServerProcess(dataDir: string, env: Record<string, string>): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/main.ts'], {
    // Info level: the server's "listening" line names its address.
    env: { ...process.env, ...benchServerEnv(dataDir, { LOG_LEVEL: 'info', ...env }) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (text) => {
      try {
        const line = JSON.parse(text) as { msg?: string; url?: string };
        if (line.msg === 'listening' && line.url) resolve(line.url);
      } catch {
        // Not a log line.
      }
    });
    void exited.then(() => reject(new Error('the server exited before it listened')));
  });
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One byte stream, whichever path carries it. */
interface Pipe {
  write(data: Buffer): Promise<void>;
  /** Resolves after `n` more bytes arrived. */
  read(n: number): Promise<void>;
  close(): void;
}

function directPipe(port: number): Promise<Pipe> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, noDelay: true });
    socket.once('error', reject);
    socket.once('connect', () =>
      resolve(
        pipeOf(
          (cb) => socket.on('data', cb),
          (data) => new Promise<void>((ok) => (socket.write(data) ? ok() : socket.once('drain', () => ok()))),
          () => socket.destroy(),
        ),
      ),
    );
  });
}

function tunnelPipe(url: string, token: string): Promise<Pipe> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` }, perMessageDeflate: false });
    ws.once('error', reject);
    ws.once('unexpected-response', (_q, res) => reject(new Error(`the tunnel answered ${res.statusCode}`)));
    ws.once('open', () =>
      resolve(
        pipeOf(
          (cb) => ws.on('message', (data: Buffer) => cb(data)),
          // The socket's own buffer is the back-pressure: past 1 MiB unsent, wait until this message is out.
          (data) =>
            new Promise<void>((ok, fail) => {
              let waiting = false;
              ws.send(data, (err) => (err ? fail(err) : waiting && ok()));
              if (ws.bufferedAmount > 1024 * 1024) waiting = true;
              else ok();
            }),
          () => ws.close(),
        ),
      ),
    );
  });
}

function pipeOf(onData: (cb: (data: Buffer) => void) => void, write: (data: Buffer) => Promise<void>, close: () => void): Pipe {
  let received = 0;
  let waiting: { until: number; resolve: () => void } | null = null;
  onData((data) => {
    received += data.length;
    if (waiting && received >= waiting.until) {
      const w = waiting;
      waiting = null;
      w.resolve();
    }
  });
  return {
    write,
    read: (n) =>
      new Promise((resolve) => {
        const until = received + n;
        // Bytes may already have arrived while the caller was writing.
        if (received >= until) resolve();
        else waiting = { until, resolve };
      }),
    close,
  };
}

const header = (command: 'U' | 'D', bytes: number) => {
  const h = Buffer.alloc(9);
  h.write(command, 0, 'latin1');
  h.writeBigUInt64BE(BigInt(bytes), 1);
  return h;
};

/** MB/s of one upload: the bytes in 64 KiB writes, until the device acknowledged the last. */
async function upload(pipe: Pipe, bytes: number): Promise<number> {
  const chunk = Buffer.alloc(CHUNK, 0xa5);
  const started = performance.now();
  const ack = pipe.read(1);
  await pipe.write(header('U', bytes));
  for (let sent = 0; sent < bytes; sent += CHUNK) await pipe.write(sent + CHUNK <= bytes ? chunk : chunk.subarray(0, bytes - sent));
  await ack;
  return bytes / 1e6 / ((performance.now() - started) / 1000);
}

/** MB/s of one download: from the request to the last byte. */
async function download(pipe: Pipe, bytes: number): Promise<number> {
  const started = performance.now();
  const all = pipe.read(bytes);
  await pipe.write(header('D', bytes));
  await all;
  return bytes / 1e6 / ((performance.now() - started) / 1000);
}

export async function measureDebugTunnel(options: TunnelOptions): Promise<TunnelReport> {
  const dataDir = mkdtempSync(join(tmpdir(), 'qa-bench-tunnel-'));
  const sink = await startSink();
  const agentConfig = join(dataDir, 'agent.json');
  writeFileSync(agentConfig, JSON.stringify({ nodeName: 'bench-node', devices: [{ provider: 'simulated', name: 'Bench tunnel device', tcpForwardPorts: [sink.port] }] }));
  let server: { url: string; stop(): Promise<void> } | undefined;
  const pipes: Pipe[] = [];
  try {
    const starting = phase('starting the server in its own process (embedded, in-process agent with one simulated device)');
    server = await startServerProcess(dataDir, { AGENT_CONFIG: agentConfig });
    starting.done(server.url);
    const s = server;
    const token = await signIn(s.url);
    const api = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(`${s.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
      return { status: r.status, body: (await r.json().catch(() => null)) as any };
    };
    let deviceId: string | undefined;
    for (const deadline = Date.now() + 30_000; !deviceId; ) {
      const d = (await api('GET', '/df/api/devices')).body?.content?.find((x: { name: string; status: string }) => x.name === 'Bench tunnel device' && x.status === 'available');
      if (d) deviceId = d.id;
      else if (Date.now() > deadline) throw new Error('the simulated device was not listed');
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const created = await api('POST', '/df/api/sessions', { deviceId });
    if (created.status !== 201) throw new Error(`POST /df/api/sessions answered ${created.status}`);
    const sessionId = created.body.id as string;
    const granted = await api('POST', `/df/api/sessions/${sessionId}/debug-capabilities`, { protocols: ['tcp_forward'] });
    if (granted.status !== 200) throw new Error(`granting tcp_forward answered ${granted.status}`);
    const tunnelUrl = `${s.url.replace(/^http/, 'ws')}/df/debug-tunnel/${sessionId}/tcp_forward/${sink.port}`;
    const open = async (path: 'direct' | 'tunnel') => {
      const p = path === 'direct' ? await directPipe(sink.port) : await tunnelPipe(tunnelUrl, token);
      pipes.push(p);
      return p;
    };

    const rates = { upload: { direct: [] as number[], tunnel: [] as number[] }, download: { direct: [] as number[], tunnel: [] as number[] } };
    const bulk = phase(`${options.runs} × ${(options.bytes / 1e6).toFixed(0)} MB each way on each path, alternating`, () => rates.download.tunnel.length / options.runs);
    for (let run = 0; run < options.runs; run++) {
      for (const path of ['direct', 'tunnel'] as const) {
        const p = await open(path);
        rates.upload[path].push(await upload(p, options.bytes));
        rates.download[path].push(await download(p, options.bytes));
        p.close();
      }
    }
    const best = (xs: number[]) => Math.max(...xs);
    bulk.done(`upload ${best(rates.upload.tunnel).toFixed(0)} MB/s through the tunnel, ${best(rates.upload.direct).toFixed(0)} MB/s direct`);

    const samples = { direct: [] as number[], tunnel: [] as number[] };
    const rt = phase(`${options.roundTrips} one-byte round trips on each path, alternating blocks`, () => samples.tunnel.length / options.roundTrips);
    const echo = { direct: await open('direct'), tunnel: await open('tunnel') };
    for (const p of Object.values(echo)) {
      const first = p.read(1);
      await p.write(Buffer.from('Px'));
      await first;
      for (let i = 0; i < options.warmup; i++) {
        const back = p.read(1);
        await p.write(Buffer.from('x'));
        await back;
      }
    }
    const block = 100;
    while (samples.tunnel.length < options.roundTrips) {
      for (const path of ['direct', 'tunnel'] as const) {
        for (let i = 0; i < block && samples[path].length < options.roundTrips; i++) {
          const started = performance.now();
          const back = echo[path].read(1);
          await echo[path].write(Buffer.from('x'));
          await back;
          samples[path].push(performance.now() - started);
        }
      }
    }
    const direct = distribution(samples.direct);
    const tunnel = distribution(samples.tunnel);
    rt.done(`p50 ${tunnel.p50.toFixed(3)} ms through the tunnel, ${direct.p50.toFixed(3)} ms direct`);
    await api('DELETE', `/df/api/sessions/${sessionId}`);
    const u = { direct: best(rates.upload.direct), tunnel: best(rates.upload.tunnel) };
    const d = { direct: best(rates.download.direct), tunnel: best(rates.download.tunnel) };
    return {
      bytes: options.bytes,
      runs: options.runs,
      upload: { ...u, ratio: u.tunnel / u.direct },
      download: { ...d, ratio: d.tunnel / d.direct },
      roundTrip: { direct, tunnel, addedP50Ms: tunnel.p50 - direct.p50 },
    };
  } finally {
    for (const p of pipes) p.close();
    await server?.stop();
    await new Promise<void>((resolve) => sink.server.close(() => resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The figures as a short text block for the bench report. */
export function formatDebugTunnel(r: TunnelReport): string {
  const mb = (v: number) => v.toFixed(0);
  return (
    `Debug tunnel (${(r.bytes / 1e6).toFixed(0)} MB per transfer, best of ${r.runs}; round trips of one byte):\n` +
    table(
      ['figure', 'direct loopback TCP', '/df/debug-tunnel', 'tunnel ÷ direct'],
      [
        ['upload, MB/s', mb(r.upload.direct), mb(r.upload.tunnel), r.upload.ratio.toFixed(2)],
        ['download, MB/s', mb(r.download.direct), mb(r.download.tunnel), r.download.ratio.toFixed(2)],
        ['round trip p50, ms', r.roundTrip.direct.p50.toFixed(3), r.roundTrip.tunnel.p50.toFixed(3), (r.roundTrip.tunnel.p50 / r.roundTrip.direct.p50).toFixed(2)],
        ['round trip p99, ms', r.roundTrip.direct.p99.toFixed(3), r.roundTrip.tunnel.p99.toFixed(3), (r.roundTrip.tunnel.p99 / r.roundTrip.direct.p99).toFixed(2)],
      ],
    ) +
    '\n'
  );
}

/** `npx tsx bench/debug-tunnel.ts`: these figures alone. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await measureDebugTunnel({ bytes: 256 * 1024 * 1024, runs: 3, roundTrips: 2_000, warmup: 200 });
  process.stdout.write(`\n${formatDebugTunnel(r)}`);
  process.exit(0);
}
