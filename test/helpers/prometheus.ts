import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './daemon.js';

/** Debian's `prometheus` package (`apt-get install prometheus`): the server and promtool. */
export const PROMETHEUS = '/usr/bin/prometheus';
export const PROMTOOL = '/usr/bin/promtool';
export const prometheusInstalled = existsSync(PROMETHEUS) && existsSync(PROMTOOL);

/** Runs promtool with `args` (and `input` on stdin): its exit code and what it printed. */
export function promtool(args: string[], input?: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(PROMTOOL, args, { timeout: 30_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
      if (err && code === -1) return reject(err);
      resolve({ code, output: `${stdout}${stderr}` });
    });
    if (input !== undefined) child.stdin!.end(input);
  });
}

/** A scrape target: a job name, `host:port`, and a bearer token when its `/metrics` needs one. */
export interface ScrapeTarget {
  job: string;
  address: string;
  token?: string;
}

export interface RunningPrometheus {
  url: string;
  /** `GET /api/v1/query?query=` → the result vector. */
  query(promql: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  stop(): Promise<void>;
}

/**
 * Starts the real Prometheus on a loopback port, with a temporary data directory and a scrape config of
 * `targets` (every half second; `rules`, alerting rule files, evaluated as often), and waits until its
 * API answers ready.
 */
export async function startPrometheus(targets: ScrapeTarget[], options: { rules?: string[] } = {}): Promise<RunningPrometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'qa-prometheus-'));
  const port = await freePort();
  const config = [
    'global:',
    '  scrape_interval: 500ms',
    '  scrape_timeout: 400ms',
    '  evaluation_interval: 500ms',
    ...(options.rules?.length ? ['rule_files:', ...options.rules.map((r) => `  - ${JSON.stringify(r)}`)] : []),
    'scrape_configs:',
    ...targets.flatMap((t) => [
      `  - job_name: ${JSON.stringify(t.job)}`,
      ...(t.token ? ['    authorization:', `      credentials: ${JSON.stringify(t.token)}`] : []),
      '    static_configs:',
      `      - targets: [${JSON.stringify(t.address)}]`,
    ]),
  ].join('\n');
  writeFileSync(join(dir, 'prometheus.yml'), `${config}\n`);
  const child: ChildProcess = spawn(
    PROMETHEUS,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--web.enable-lifecycle',
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prometheus exited: ${log}`);
    const ready = await fetch(`${url}/-/ready`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`prometheus did not get ready: ${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    async query(promql) {
      const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
      const body = (await res.json()) as { status: string; error?: string; data?: { result: { metric: Record<string, string>; value: [number, string] }[] } };
      if (body.status !== 'success') throw new Error(`query ${promql} failed: ${body.error}`);
      return body.data!.result;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
