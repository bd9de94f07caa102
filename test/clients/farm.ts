import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { eventually, startTestSite, writeAgentConfig, type TestSite } from '#test/helpers/df-farm.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/** The repository's root, where the runners' binaries are. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ClientFarm {
  server: TestServer;
  site: TestSite;
  token: string;
  /** A device-testing API key, as CI holds one. */
  apiKey: string;
  deviceId: string;
  api<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

/** The server with browser devices (Chromium; one unless `devices` says more), a test site, an administrator's token and an API key. */
export async function startClientFarm(name: string, options: { devices?: number } = {}): Promise<ClientFarm> {
  const count = options.devices ?? 1;
  // The first keeps the name tests give QA_PLATFORM_DEVICE; more are numbered.
  const devices = Array.from({ length: count }, (_, i) => ({ provider: 'browser' as const, name: i === 0 ? `Desktop (${name})` : `Desktop ${i + 1} (${name})`, profile: 'desktop' as const, width: 800, height: 600 }));
  const admin = { email: `${name}-admin@example.com`, password: `${name}-password-1` };
  const site = await startTestSite();
  const server = await startTestServer({
    BOOTSTRAP_ADMIN_EMAIL: admin.email,
    BOOTSTRAP_ADMIN_PASSWORD: admin.password,
    DF_WD_QUEUE_TIMEOUT: '120s',
    AGENT_CONFIG: writeAgentConfig({ nodeName: `${name}-node`, heartbeatMs: 500, devices }),
  });
  const token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: admin })).body.token as string;
  const api = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });
  const deviceId = await eventually(async () => {
    const r = await api('GET', '/devices');
    const available = ((r.body.content ?? []) as { id: string; status: string }[]).filter((d) => d.status === 'available');
    return available.length === count ? available[0]!.id : undefined;
  }, { what: `${count} browser device(s)`, timeoutMs: 120_000 });
  const apiKey = (await api('POST', '/keys', { name: `${name} CI` })).body.key as string;
  return {
    server, site, token, apiKey, deviceId, api,
    async stop() {
      await server.stop();
      await site.close();
    },
  };
}

/** Node's option that resolves the client packages to their sources, as in the repository's own tsconfig and vitest config. */
const SOURCES = '--conditions=qa-platform-source';

/**
 * Runs a command to its end (a test runner's CLI), its output collected. From the repository (the
 * default) the client packages resolve to their sources; from `cwd` elsewhere, as installed.
 */
export function runCli(command: string, args: string[], env: Record<string, string>, cwd = ROOT): Promise<{ code: number | null; output: string }> {
  const inside = cwd === ROOT;
  const nodeOptions = inside ? [process.env.NODE_OPTIONS, SOURCES].filter(Boolean).join(' ') : (process.env.NODE_OPTIONS ?? '');
  // Elsewhere, none of the npm settings an `npm run` / `npx` of this repository passed down (its prefix, workspaces).
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => inside || !k.toLowerCase().startsWith('npm_')));
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...base, NODE_OPTIONS: nodeOptions, ...env, FORCE_COLOR: '0', NO_COLOR: '1', CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** One cue of a session's chapters (WebVTT), in milliseconds of the video. */
export interface Cue { startMs: number; endMs: number; title: string }

const cueTime = (stamp: string): number => {
  const [h, m, s] = stamp.trim().split(':');
  return Math.round(((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000);
};

/**
 * Where a failed test is in its session's video, read through the API: the WebVTT chapters' cues
 * titled after the test (its `test_started` first, then the event that ended it), the session's test
 * events of that name with the time the platform recorded them, and the stored video's length.
 */
export async function testChapters(farm: ClientFarm, sessionId: string, testName: string): Promise<{ vtt: string; cues: Cue[]; events: { type: string; reportedAt: number }[]; durationMs: number }> {
  const chapters = await farm.api<string>('GET', `/sessions/${sessionId}/video/chapters`);
  if (chapters.status !== 200) throw new Error(`chapters: ${chapters.status} ${JSON.stringify(chapters.body)}`);
  const vtt = chapters.body;
  const cues: Cue[] = [];
  for (const block of vtt.split('\n\n')) {
    const lines = block.trim().split('\n');
    const arrow = lines.findIndex((l) => l.includes(' --> '));
    if (arrow < 0) continue;
    const [from, to] = lines[arrow]!.split(' --> ');
    cues.push({ startMs: cueTime(from!), endMs: cueTime(to!), title: lines.slice(arrow + 1).join('\n') });
  }
  const events = ((await farm.api('GET', `/automation/sessions/${sessionId}/test-events?size=100`)).body.content as { type: string; name: string; reportedAt: string }[])
    .filter((e) => e.name === testName)
    .map((e) => ({ type: e.type, reportedAt: Date.parse(e.reportedAt) }));
  const durationMs = (await farm.api('GET', `/sessions/${sessionId}/recording/status`)).body.video.durationMs as number;
  return { vtt, cues: cues.filter((c) => c.title === `custom: ${testName}`), events, durationMs };
}

/** A time in the video as the clients print it (`0:02.345`). */
export const printedTime = (ms: number): string => `${Math.floor(ms / 60_000)}:${String(Math.floor((ms % 60_000) / 1000)).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}`;

/**
 * The video line a runner printed for a failed test (`<title> failed; video: <link> (the test starts at
 * <time>; ...)`), checked to be there and its link to play without a credential (a range of an MP4);
 * answers the link and the printed start.
 */
export async function printedVideo(farm: ClientFarm, output: string, title: string): Promise<{ link: string; startsAt: string }> {
  const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const printed = new RegExp(`\\[qa-platform\\] ${escaped} failed; video: (\\S+) \\(the test starts at (\\d+:\\d{2}\\.\\d{3}); the link is valid until `).exec(output);
  expect(printed, output).not.toBeNull();
  const [, link, startsAt] = printed!;
  expect(link!.startsWith(`${farm.server.url}/`)).toBe(true);
  const played = await fetch(link!, { headers: { range: 'bytes=0-7' } });
  expect(played.status).toBe(206);
  expect(played.headers.get('content-type')).toBe('video/mp4');
  expect(Buffer.from(await played.arrayBuffer()).subarray(4, 8).toString('latin1')).toBe('ftyp');
  return { link: link!, startsAt: startsAt! };
}
