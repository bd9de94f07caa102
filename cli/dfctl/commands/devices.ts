import { writeFileSync } from 'node:fs';
import type { Device, Page, SessionLogEntry as LogEntry, Session } from '@qa-platform/client';
import type { Api } from '../api.js';
import { intFlag, positionals } from '../args.js';
import type { Command } from '../command.js';
import { EXIT, usage } from '../errors.js';
import { formatTime, printJson, printLine, printTable } from '../output.js';

/** Every page of a platform list (`page`/`size`, docs/api-conventions.md "Paging"), up to `limit` items. */
export async function allPages<T>(api: Api, path: string, query: Record<string, string | readonly string[] | undefined>, limit = 10_000): Promise<T[]> {
  const out: T[] = [];
  for (let page = 0; ; page++) {
    const p = await api.get<Page<T>>(path, { ...query, page: String(page), size: '200' });
    out.push(...p.content);
    if (page + 1 >= p.totalPages || p.content.length === 0 || out.length >= limit) return out.slice(0, limit);
  }
}

const PLATFORMS = ['android', 'ios', 'web'];
const STATUSES = ['available', 'in_use', 'reserved', 'offline', 'maintenance'];

/** A comma-separated flag checked against its allowed values. */
function listFlag(raw: string | undefined, name: string, allowed: readonly string[]): string[] | undefined {
  if (raw === undefined) return undefined;
  const values = raw.split(',').map((v) => v.trim()).filter(Boolean);
  for (const v of values) if (!allowed.includes(v)) throw usage(`--${name} takes ${allowed.join(', ')} (got ${v})`);
  return values;
}

export const devices: Command = {
  name: 'devices',
  summary: 'list the devices of the workspace (--unhealthy: those whose health needs attention)',
  usage: `dfctl devices [--platform android|ios|web] [--status available|in_use|reserved|offline|maintenance] [--search <text>] [--unhealthy]

--platform and --status take one value or several separated by commas. --unhealthy lists only the
devices whose health is not healthy (cooling, charging, quarantined, in maintenance, degraded), with
their health state and its reasons.`,
  flags: { values: ['platform', 'status', 'search'], booleans: ['unhealthy'] },
  async run(ctx) {
    positionals(ctx.args, []);
    const unhealthy = ctx.args.booleans.has('unhealthy');
    const list = await allPages<Device>(ctx.api(), '/df/api/devices', {
      platform: listFlag(ctx.args.values.get('platform'), 'platform', PLATFORMS),
      status: listFlag(ctx.args.values.get('status'), 'status', STATUSES),
      search: ctx.args.values.get('search'),
      ...(unhealthy ? { needsAttention: 'true' } : {}),
    });
    if (ctx.json) return printJson(list);
    if (unhealthy) {
      return printTable(
        ['ID', 'NAME', 'PLATFORM', 'STATUS', 'HEALTH', 'CHECKED', 'REASONS', 'HOST'],
        list.map((d) => [d.id, d.alias ?? d.name, d.platform, d.status, d.health?.state ?? '', formatTime(d.health?.checkedAt), (d.health?.reasons ?? []).join('; '), d.nodeName]),
        'Every device is healthy.',
      );
    }
    printTable(
      ['ID', 'NAME', 'PLATFORM', 'OS', 'MODEL', 'STATUS', 'HOST'],
      list.map((d) => [d.id, d.alias ?? d.name, d.platform, d.osVersion, d.model, d.status, d.nodeName]),
      'No device matches.',
    );
  },
};

export const sessions: Command = {
  name: 'sessions',
  summary: 'list your open sessions (--all: every session of the workspace)',
  usage: `dfctl sessions [--all]

Without --all: your sessions that are starting or active. With --all: every session of the
workspace, newest first, ended ones included.`,
  flags: { booleans: ['all'] },
  async run(ctx) {
    positionals(ctx.args, []);
    const api = ctx.api();
    const list = ctx.args.booleans.has('all')
      ? await allPages<Session>(api, '/df/api/sessions', {}, 1000)
      : await allPages<Session>(api, '/df/api/sessions/active', {});
    if (ctx.json) return printJson(list);
    printTable(
      ['ID', 'NAME', 'DEVICE', 'TYPE', 'STATUS', 'STARTED', 'ENDED'],
      list.map((s) => [s.id, s.name, s.deviceName, s.type, s.status + (s.endReason ? ` (${s.endReason})` : ''), formatTime(s.startedAt), formatTime(s.endedAt)]),
      ctx.args.booleans.has('all') ? 'No session.' : 'No open session (dfctl open <deviceId> opens one).',
    );
  },
};

export const open: Command = {
  name: 'open',
  summary: 'open a session on a device; prints the session id',
  usage: `dfctl open <deviceId> [--name <name>] [--type manual|automation|debug]

Waits until the device is ready, then prints the session's id (alone on its line, so
S=$(dfctl open <deviceId>) works). --json prints the session.`,
  flags: { values: ['name', 'type'] },
  async run(ctx) {
    const [deviceId] = positionals(ctx.args, ['deviceId']);
    const type = ctx.args.values.get('type');
    if (type !== undefined && !['manual', 'automation', 'debug'].includes(type)) throw usage('--type takes manual, automation or debug');
    const name = ctx.args.values.get('name');
    const session = await ctx.api().post<Session>('/df/api/sessions', { deviceId, ...(name ? { name } : {}), ...(type ? { type } : {}) });
    if (ctx.json) return printJson(session);
    printLine(session.id);
  },
};

export const end: Command = {
  name: 'end',
  summary: 'end a session',
  usage: 'dfctl end <sessionId>',
  flags: {},
  async run(ctx) {
    const [id] = positionals(ctx.args, ['sessionId']);
    const session = await ctx.api().request<Session>('DELETE', `/df/api/sessions/${encodeURIComponent(id!)}`);
    if (ctx.json) return printJson(session);
    printLine(`Session ${session.id} ${session.status}${session.endReason ? ` (${session.endReason})` : ''}.`);
  },
};

export const logs: Command = {
  name: 'logs',
  summary: "print a session's device logs (--follow: keep printing until it ends)",
  usage: `dfctl logs <sessionId> [--follow] [--interval <ms>]

Device logs (console, errors, network failures). --follow keeps asking for new entries every
--interval milliseconds (default 1000) until the session ends or dfctl is interrupted; with --json
each entry is then one JSON line.`,
  flags: { values: ['interval'], booleans: ['follow'] },
  async run(ctx) {
    const [id] = positionals(ctx.args, ['sessionId']);
    const api = ctx.api();
    const path = `/df/api/sessions/${encodeURIComponent(id!)}`;
    const follow = ctx.args.booleans.has('follow');
    const interval = intFlag(ctx.args, 'interval', 100, 60_000) ?? 1000;
    const show = (e: LogEntry) => printLine(ctx.json ? JSON.stringify(e) : `${formatTime(e.at)} ${e.level.toUpperCase().padEnd(5)} ${e.source}: ${e.text}`);
    const first = await api.get<{ entries: LogEntry[]; lastSeq: number }>(`${path}/logs`);
    if (!follow) {
      if (ctx.json) return printJson(first);
      if (first.entries.length === 0) printLine('No log entry.');
      for (const e of first.entries) show(e);
      return;
    }
    for (const e of first.entries) show(e);
    let after = first.lastSeq;
    let stopped = false;
    const stop = () => {
      stopped = true;
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    // Nothing pushes log entries to an HTTP client, so following is asking again at an interval.
    while (!stopped) {
      await new Promise((resolve) => setTimeout(resolve, interval));
      if (stopped) break;
      const next = await api.get<{ entries: LogEntry[]; lastSeq: number }>(`${path}/logs`, { afterSeq: String(after) });
      for (const e of next.entries) show(e);
      after = Math.max(after, next.lastSeq);
      const session = await api.get<Session>(path);
      if (session.status === 'ended' || session.status === 'failed') {
        process.stderr.write(`dfctl: session ${session.id} ${session.status}${session.endReason ? ` (${session.endReason})` : ''}\n`);
        return EXIT.OK;
      }
    }
    return EXIT.OK;
  },
};

export const screenshot: Command = {
  name: 'screenshot',
  summary: "save a session's screen as it is now (PNG)",
  usage: `dfctl screenshot <sessionId> [--output <file>] [--format png|jpeg]

Captures the session's current screen and writes it to <file> (default: <sessionId>.png, or .jpg with
--format jpeg). The capture is kept with the session's artifacts too. --json prints {file, bytes}.`,
  flags: { values: ['output', 'format'], booleans: [] },
  async run(ctx) {
    const [id] = positionals(ctx.args, ['sessionId']);
    const format = ctx.args.values.get('format') ?? 'png';
    if (format !== 'png' && format !== 'jpeg') throw usage('--format is png or jpeg');
    const file = ctx.args.values.get('output') ?? `${id}.${format === 'png' ? 'png' : 'jpg'}`;
    const image = await ctx.api().request<Buffer>('GET', `/df/api/sessions/${encodeURIComponent(id!)}/screenshot`, { query: { format }, binary: true });
    writeFileSync(file, image);
    if (ctx.json) printJson({ file, bytes: image.length });
    else printLine(`Wrote ${file} (${image.length} bytes).`);
  },
};
