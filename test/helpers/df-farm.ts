import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import type { AgentConfigFile } from '#agent/index.js';

/** Writes an agent config file and returns its path (for `AGENT_CONFIG`). */
export function writeAgentConfig(config: AgentConfigFile): string {
  const path = join(mkdtempSync(join(tmpdir(), 'df-agent-')), 'agent.json');
  writeFileSync(path, JSON.stringify(config));
  return path;
}

/**
 * Polls `probe` until it returns a value other than undefined, or fails with the last value seen.
 * For conditions the test cannot be notified of (a device appearing in a list).
 */
export async function eventually<T>(probe: () => Promise<T | undefined>, options: { timeoutMs?: number; what?: string } = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${options.what ?? 'a condition'}${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface TestSite {
  url: string;
  /** What pages reported to `/events`, oldest first. */
  events: { kind: string; detail: string }[];
  /** Resolves with the first event matching `predicate` (already received or still to come). */
  waitForEvent(predicate: (e: { kind: string; detail: string }) => boolean, timeoutMs?: number): Promise<{ kind: string; detail: string }>;
  close(): Promise<void>;
}

/**
 * A page served on 127.0.0.1 whose own script reports taps, typed text and what it found in
 * localStorage to `/events`, so a test sees what really happened in the browser.
 */
export async function startTestSite(): Promise<TestSite> {
  const events: { kind: string; detail: string }[] = [];
  const waiters = new Set<{ predicate: (e: { kind: string; detail: string }) => boolean; resolve: (e: { kind: string; detail: string }) => void }>();
  const page = `<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">
<title>farm test page</title>
<style>body{margin:0;font-family:sans-serif} #target{display:block;width:100%;height:200px;font-size:32px;background:#4a90d9;color:#fff;border:0}
#field{display:block;width:90%;height:60px;margin:20px;font-size:24px}
#spinner{width:80px;height:80px;background:linear-gradient(90deg,#e33,#3e3,#33e);animation:spin 0.5s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}</style></head>
<body><button id="target">Tap me</button><input id="field" placeholder="type here"><p id="status">taps: 0</p><p id="previous"></p><div id="spinner"></div>
<script>
  var taps = 0;
  function report(kind, detail) { fetch('/events', { method: 'POST', body: JSON.stringify({ kind: kind, detail: String(detail) }) }); }
  var previous = localStorage.getItem('visited');
  document.getElementById('previous').textContent = 'previous: ' + (previous === null ? 'none' : previous);
  report('storage', previous === null ? 'none' : previous);
  localStorage.setItem('visited', 'yes');
  document.getElementById('target').addEventListener('click', function (e) {
    taps += 1;
    document.getElementById('status').textContent = 'taps: ' + taps;
    report('tap', Math.round(e.clientX) + ',' + Math.round(e.clientY));
  });
  document.getElementById('field').addEventListener('change', function (e) { report('text', e.target.value); });
  document.getElementById('field').addEventListener('keydown', function (e) { if (e.key === 'Enter') report('enter', e.target.value); });
  console.log('test page loaded');
</script></body></html>`;
  const server: Server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/events') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const event = JSON.parse(body) as { kind: string; detail: string };
        events.push(event);
        for (const w of waiters) {
          if (w.predicate(event)) {
            waiters.delete(w);
            w.resolve(event);
          }
        }
        res.writeHead(204).end();
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/page`,
    events,
    waitForEvent(predicate, timeoutMs = 15_000) {
      const found = events.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { predicate, resolve: (e: { kind: string; detail: string }) => (clearTimeout(timer), resolve(e)) };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`No page event matched in ${timeoutMs} ms; got ${JSON.stringify(events)}`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A viewer WebSocket client that keeps what it received. */
export interface ViewerClient {
  socket: WebSocket;
  frames: Buffer[];
  messages: Record<string, unknown>[];
  /** Resolves with the first JSON message matching `predicate` (already received or still to come). */
  next(predicate: (m: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Resolves once `count` frames have arrived. */
  framesAtLeast(count: number, timeoutMs?: number): Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
  send(message: Record<string, unknown>): void;
}

/** Connects a viewer; `headers` or a URL query carry the token, or send it as the first message. */
export function connectViewer(url: string, headers: Record<string, string> = {}): ViewerClient {
  const socket = new WebSocket(url, { headers });
  const frames: Buffer[] = [];
  const messages: Record<string, unknown>[] = [];
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const l of [...listeners]) l();
  };
  socket.on('message', (data, isBinary) => {
    if (isBinary) frames.push(data as Buffer);
    else messages.push(JSON.parse(data.toString()) as Record<string, unknown>);
    notify();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
      notify();
    });
    socket.on('error', () => undefined);
    socket.on('unexpected-response', (_req, res) => resolve({ code: res.statusCode ?? 0, reason: 'http' }));
  });
  const wait = <T>(check: () => T | undefined, timeoutMs: number, what: string) =>
    new Promise<T>((resolve, reject) => {
      const attempt = () => {
        const value = check();
        if (value === undefined) return false;
        listeners.delete(attempt);
        clearTimeout(timer);
        resolve(value);
        return true;
      };
      const timer = setTimeout(() => {
        listeners.delete(attempt);
        reject(new Error(`Viewer: no ${what} in ${timeoutMs} ms; messages ${JSON.stringify(messages).slice(0, 500)}`));
      }, timeoutMs);
      if (!attempt()) listeners.add(attempt);
    });
  return {
    socket,
    frames,
    messages,
    closed,
    next: (predicate, timeoutMs = 15_000) => wait(() => messages.find(predicate), timeoutMs, 'matching message'),
    framesAtLeast: (count, timeoutMs = 15_000) => wait(() => (frames.length >= count ? true : undefined), timeoutMs, `${count} frames`).then(() => undefined),
    send: (message) => {
      const payload = JSON.stringify(message);
      if (socket.readyState === socket.OPEN) socket.send(payload);
      else socket.once('open', () => socket.send(payload));
    },
  };
}

/** Enrols a device host into the caller's company (`POST /df/api/hosts`) and returns its token. */
export async function enrolHost(base: string, token: string, name: string, workspaceIds?: number[]): Promise<string> {
  const res = await fetch(new URL('/df/api/hosts', base), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, ...(workspaceIds ? { workspaceIds } : {}) }),
  });
  const body = (await res.json()) as { token?: string };
  if (res.status !== 201 || !body.token) throw new Error(`host enrolment failed: ${res.status} ${JSON.stringify(body)}`);
  return body.token;
}
