/*
 * Upload throughput of the file API on the embedded defaults: the same bytes written straight to a
 * file on the local disk (the ceiling), uploaded by the presigned single PUT, and by multipart (parts
 * in parallel), each including its confirm (the size and checksum check). Figures are MB/s and the
 * ratio to the local disk write.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { table, phase } from './console.js';
import { signIn, startBenchServer } from './server.js';

export interface UploadsOptions {
  /** Bytes per upload. */
  bytes: number;
  partSize: number;
  /** Parts sent at once. */
  parallelParts: number;
  /** Runs per path; the median is reported. */
  runs: number;
}

export interface UploadsReport {
  bytes: number;
  diskMBps: number;
  singleMBps: number;
  multipartMBps: number;
  singleRatio: number;
  multipartRatio: number;
}

const CHUNK = randomBytes(1024 * 1024);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Writes `bytes` (1 MiB at a time, honouring back-pressure) into a writable. */
async function pump(out: NodeJS.WritableStream, bytes: number): Promise<void> {
  for (let sent = 0; sent < bytes; sent += CHUNK.length) {
    const piece = sent + CHUNK.length <= bytes ? CHUNK : CHUNK.subarray(0, bytes - sent);
    if (!out.write(piece)) await new Promise((r) => out.once('drain', r));
  }
}

function put(url: string, headers: Record<string, string>, bytes: number): Promise<{ status: number; etag: string | null }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'PUT', headers: { ...headers, 'content-length': String(bytes) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: (res.headers.etag as string | undefined) ?? null }));
    });
    req.on('error', reject);
    void pump(req, bytes).then(() => req.end(), reject);
  });
}

export async function measureUploads(options: UploadsOptions): Promise<UploadsReport> {
  const dataDir = mkdtempSync(join(tmpdir(), 'qa-bench-uploads-'));
  const server = await startBenchServer(dataDir, { AGENT_ENABLED: 'false' });
  try {
    const token = await signIn(server.url);
    const api = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(`${server.url}/df/api${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
      const json = (await r.json()) as Record<string, any>;
      if (r.status >= 300) throw new Error(`${method} ${path} answered ${r.status}: ${JSON.stringify(json)}`);
      return json;
    };
    const mbps = (ms: number) => options.bytes / 1e6 / (ms / 1000);
    const disk: number[] = [];
    const single: number[] = [];
    const multi: number[] = [];
    const p = phase(`uploading ${options.bytes / 2 ** 20} MiB ${options.runs} times per path`);
    for (let run = 0; run < options.runs; run++) {
      let t = performance.now();
      const file = createWriteStream(join(dataDir, `disk-${run}`), { flush: true });
      await pump(file, options.bytes);
      await new Promise<void>((resolve, reject) => file.end((err?: Error | null) => (err ? reject(err) : resolve())));
      disk.push(mbps(performance.now() - t));
      rmSync(join(dataDir, `disk-${run}`));

      t = performance.now();
      const s = await api('POST', '/files/presigned-upload', { name: `single-${run}.bin`, size: options.bytes, contentType: 'application/octet-stream' });
      if ((await put(s.url, s.headers, options.bytes)).status !== 200) throw new Error('single PUT failed');
      await api('POST', `/files/${s.fileId}/confirm`);
      single.push(mbps(performance.now() - t));
      await api('DELETE', `/files/${s.fileId}`).catch(() => undefined);

      t = performance.now();
      const m = await api('POST', '/files/multipart/initiate', { name: `multi-${run}.bin`, size: options.bytes, contentType: 'application/octet-stream', partSize: options.partSize });
      const etags: { partNumber: number; etag: string }[] = [];
      let next = 1;
      const worker = async () => {
        while (next <= m.partCount) {
          const n = next++;
          const url = await api('GET', `/files/multipart/${m.fileId}/part/${n}`);
          const length = n < m.partCount ? m.partSize : options.bytes - m.partSize * (m.partCount - 1);
          const r = await put(url.url, {}, length);
          if (r.status !== 200 || !r.etag) throw new Error(`part ${n} failed: ${r.status}`);
          etags.push({ partNumber: n, etag: r.etag });
        }
      };
      await Promise.all(Array.from({ length: options.parallelParts }, worker));
      await api('POST', `/files/multipart/${m.fileId}/complete`, { parts: etags.sort((a, b) => a.partNumber - b.partNumber) });
      multi.push(mbps(performance.now() - t));
      await api('DELETE', `/files/${m.fileId}`).catch(() => undefined);
    }
    p.done('done');
    const report = { bytes: options.bytes, diskMBps: median(disk), singleMBps: median(single), multipartMBps: median(multi), singleRatio: 0, multipartRatio: 0 };
    report.singleRatio = report.singleMBps / report.diskMBps;
    report.multipartRatio = report.multipartMBps / report.diskMBps;
    return report;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function formatUploads(r: UploadsReport): string {
  const row = (path: string, v: number, ratio: number | null) => [path, `${v.toFixed(0)} MB/s`, ratio === null ? '—' : `${(ratio * 100).toFixed(0)} %`];
  return `Uploads of ${r.bytes / 2 ** 20} MiB (upload, then confirm: size and SHA-256 checked)\n${table(['path', 'throughput', 'of local disk'], [
    row('write to a local file (fsync at end)', r.diskMBps, null),
    row('presigned single PUT + confirm', r.singleMBps, r.singleRatio),
    row('multipart (parts in parallel) + complete', r.multipartMBps, r.multipartRatio),
  ])}\n`;
}
