import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Database } from '#shared/db/index.js';
import type { RecordedEvent } from '#shared/es/index.js';
import { openTestPostgres } from '#test/helpers/postgres.js';
import { applyAll } from '../types.js';
import { dfReportsProjection } from './projection.js';
import { deviceUsageFromSessions, deviceUsageReport, type ReportQuery } from './queries.js';

// The device-usage report from the per-day running totals against the same report computed from every
// session and online interval (deviceUsageFromSessions, the query the totals replace): the same rows,
// to the hundredth of a minute, for zones off the whole hour, DST days, ranges off the quarter hour,
// running sessions, open online intervals, deleted sessions, filters and weeks, on both databases.

const adapters: [string, () => Promise<{ db: Database; close: () => Promise<void> }>][] = [
  ['PGlite', async () => {
    const db = await openPglite();
    return { db, close: () => db.close() };
  }],
  ['PostgreSQL', async () => {
    const pg = await openTestPostgres();
    return { db: pg.db, close: pg.dispose };
  }],
];

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const START = Date.parse('2026-03-05T00:00:00.000Z');

/** A deterministic pseudo-random sequence. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

type Given = { type: string; payload: Record<string, unknown>; at: number };
const iso = (t: number) => new Date(t).toISOString();
const requested = (sessionId: string, deviceId: string, at: number, over: Record<string, unknown> = {}): Given => ({
  type: 'DeviceSessionRequested',
  payload: { sessionId, deviceId, hostId: 'h', deviceName: `Device ${deviceId}`, name: 's', type: 'manual', buildName: null, metadata: {}, ownerId: 7, companyId: 1, workspaceId: 2, ...over },
  at,
});
const ended = (sessionId: string, at: number): Given => ({ type: 'DeviceSessionEnded', payload: { sessionId, reason: 'user' }, at });
const failed = (sessionId: string, at: number): Given => ({ type: 'DeviceSessionFailed', payload: { sessionId, code: 'X', reason: 'broken' }, at });
const connected = (deviceId: string, at: number): Given => ({ type: 'DeviceConnected', payload: { deviceId, status: 'available' }, at });

/** Sessions at odd instants (milliseconds off the quarter hour) across midnights and both DST nights of March 2026. */
function history(): Given[] {
  const rnd = random(7);
  const events: Given[] = [
    connected('d1', START + 3 * HOUR + 7 * MIN + 123),
    connected('d2', START),
    connected('d4', START + 2 * DAY + 5 * HOUR + 44 * MIN),
    connected('x1', START),
    { type: 'DeviceDisconnected', payload: { deviceId: 'd1', reason: 'unplugged' }, at: START + 4 * DAY + 10 * HOUR + 7 * MIN + 13_456 },
    { type: 'HostDevicesReconnected', payload: { hostId: 'h', deviceIds: ['d1'] }, at: START + 4 * DAY + 12 * HOUR + 1 },
    // Over the night Europe/Berlin moves to summer time (2026-03-29 01:00 UTC).
    { type: 'HostDevicesDisconnected', payload: { hostId: 'h', deviceIds: ['d2'], reason: 'lost', status: 'offline' }, at: Date.parse('2026-03-29T00:30:00.500Z') },
    { type: 'HostDevicesReconnected', payload: { hostId: 'h', deviceIds: ['d2'] }, at: Date.parse('2026-03-29T03:00:00.000Z') },
    { type: 'DeviceMoved', payload: { deviceId: 'd2' }, at: Date.parse('2026-03-30T08:00:00.000Z') },
  ];
  const ends: Given[] = [];
  for (let i = 0; i < 120; i++) {
    const deviceId = ['d1', 'd2', 'd4'][i % 3]!;
    const start = START + Math.floor(rnd() * 25 * DAY);
    const length = Math.floor(rnd() * 5 * HOUR) + 1;
    const over = {
      ownerId: 7 + (i % 3),
      type: i % 4 === 0 ? 'automation' : 'manual',
      buildName: i % 5 === 0 ? 'b1' : i % 5 === 1 ? 'b2' : null,
      // A renamed device: its later sessions carry the new name.
      deviceName: deviceId === 'd4' && start > START + 12 * DAY ? 'Device d4 (renamed)' : `Device ${deviceId}`,
    };
    events.push(requested(`s${i}`, deviceId, start, over));
    ends.push(i % 11 === 0 ? failed(`s${i}`, start + length) : ended(`s${i}`, start + length));
  }
  events.push(
    // Across the New York DST night (2026-03-08 07:00 UTC) and across several midnights.
    requested('ny', 'd1', Date.parse('2026-03-08T05:59:59.999Z')),
    ended('ny', Date.parse('2026-03-08T09:13:00.001Z')),
    // Longer than the totals take: read from the sessions.
    requested('long', 'd2', Date.parse('2026-03-10T22:10:00.000Z')),
    ended('long', Date.parse('2026-03-18T23:40:00.000Z')),
    // Ended at its start: counted nowhere.
    requested('instant', 'd1', Date.parse('2026-03-12T12:00:00.000Z')),
    failed('instant', Date.parse('2026-03-12T12:00:00.000Z')),
    // Still running (counted up to now).
    requested('open', 'd4', Date.parse('2026-03-27T21:48:31.250Z')),
    // Deleted once finished, and one deleted while running.
    requested('gone', 'd1', Date.parse('2026-03-15T23:50:00.000Z')),
    ended('gone', Date.parse('2026-03-16T02:00:00.000Z')),
    requested('gone-open', 'd2', Date.parse('2026-03-20T10:00:00.000Z')),
    // Another workspace of the company, and another company, on the same and other devices.
    requested('ws3', 'd1', Date.parse('2026-03-11T10:00:00.000Z'), { workspaceId: 3 }),
    ended('ws3', Date.parse('2026-03-11T16:00:00.000Z')),
    requested('other', 'x1', Date.parse('2026-03-11T10:00:00.000Z'), { companyId: 9, workspaceId: 2 }),
    ended('other', Date.parse('2026-03-11T16:00:00.000Z')),
  );
  events.push(...ends);
  events.push({ type: 'DeviceSessionDeleted', payload: { sessionId: 'gone' }, at: Date.parse('2026-03-21T00:00:00.000Z') });
  events.push({ type: 'DeviceSessionDeleted', payload: { sessionId: 'gone-open' }, at: Date.parse('2026-03-21T00:00:00.000Z') });
  // Applied in the order they happened, as the log holds them.
  return events.sort((a, b) => a.at - b.at);
}

let position = 0n;
const record = (events: Given[]): RecordedEvent[] =>
  events.map((e) => {
    position += 1n;
    return {
      id: randomUUID(),
      streamId: `spec-${e.type}`,
      revision: Number(position),
      position,
      type: e.type,
      version: 1,
      payload: e.payload,
      metadata: { actorId: 1, companyId: 1, workspaceId: 2, occurredAt: iso(e.at) },
      recordedAt: new Date(e.at),
    };
  });

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kathmandu', 'Asia/Kolkata', 'America/Santiago'];
const RANGES: [string, string][] = [
  ['2026-03-05T00:00:00.000Z', '2026-04-02T00:00:00.000Z'],
  // Off the quarter hour at both ends.
  ['2026-03-07T03:07:41.123Z', '2026-03-30T17:52:09.987Z'],
  // Within one quarter hour.
  ['2026-03-12T10:01:00.000Z', '2026-03-12T10:09:30.000Z'],
];
const NOWS = ['2026-03-28T06:10:00.000Z', '2026-04-05T00:00:00.000Z'];

describe.each(adapters)('device-usage read model on %s', (_name, open) => {
  let db: Database;
  let close: () => Promise<void>;
  const events = record(history());
  beforeAll(async () => {
    ({ db, close } = await open());
    await db.exec(dfReportsProjection.schema);
    await db.transaction((tx) => applyAll(dfReportsProjection, tx, events));
  }, 60_000);
  afterAll(() => close());

  const query = (over: Partial<ReportQuery>): ReportQuery => ({
    companyId: 1,
    workspaceId: 2,
    from: new Date(RANGES[0]![0]),
    to: new Date(RANGES[0]![1]),
    now: new Date(NOWS[0]!),
    timeZone: 'UTC',
    groupBy: 'day',
    ...over,
  });

  it('answers as the sessions do, in every zone, for days and weeks, any range, running sessions and open online intervals', async () => {
    let compared = 0;
    for (const timeZone of ZONES)
      for (const groupBy of ['day', 'week'] as const)
        for (const [from, to] of RANGES)
          for (const now of NOWS) {
            const q = query({ timeZone, groupBy, from: new Date(from), to: new Date(to), now: new Date(now) });
            const expected = await deviceUsageFromSessions(db, q);
            expect(await deviceUsageReport(db, q), `${timeZone} ${groupBy} ${from}–${to} now ${now}`).toEqual(expected);
            compared += expected.length;
          }
    // The history gives the comparison something to compare: rows with sessions, time and online time.
    expect(compared).toBeGreaterThan(1_000);
    const whole = await deviceUsageReport(db, query({ timeZone: 'Asia/Kathmandu' }));
    expect(whole.some((r) => r.sessions > 0 && r.minutesInSession > 0 && r.minutesOnline > 0)).toBe(true);
    expect(whole.some((r) => r.deviceName === 'Device d4 (renamed)')).toBe(true);
  });

  it('counts a running session up to now and an open online interval up to now', async () => {
    const day = (now: string) => deviceUsageReport(db, query({ now: new Date(now), from: new Date('2026-03-27T00:00:00.000Z'), to: new Date('2026-03-28T00:00:00.000Z'), deviceId: ['d4'] }));
    const before = (await day('2026-03-27T22:00:00.000Z')).find((r) => r.period === '2026-03-27')!;
    const after = (await day('2026-03-27T23:00:00.000Z')).find((r) => r.period === '2026-03-27')!;
    // One more hour of the running session ('open' started 21:48:31.25), and of d4's online time.
    expect(Math.round((after.minutesInSession - before.minutesInSession) * 100) / 100).toBe(60);
    expect(Math.round((after.minutesOnline - before.minutesOnline) * 100) / 100).toBe(60);
  });

  it('leaves out deleted sessions, other workspaces and other companies', async () => {
    const rows = await deviceUsageReport(db, query({ timeZone: 'Europe/Berlin' }));
    expect(rows.some((r) => r.deviceId === 'x1')).toBe(false);
    // 'gone' (d1, 15th 23:50 – 16th 02:00 UTC) was deleted; 'gone-open' (d2, from the 20th) too.
    const gone = await db.query(`SELECT count(*)::int AS n FROM df_report_sessions WHERE session_id IN ('gone', 'gone-open', 'ws3')`);
    expect(gone.rows[0]!.n).toBe(1);
    const ws3 = await deviceUsageReport(db, query({ workspaceId: 3 }));
    expect(ws3.map((r) => [r.period, r.deviceId, r.sessions, r.minutesInSession])).toEqual([['2026-03-11', 'd1', 1, 360]]);
    const other = await deviceUsageReport(db, query({ companyId: 9 }));
    expect(other.map((r) => [r.period, r.deviceId, r.minutesInSession])).toEqual([['2026-03-11', 'x1', 360]]);
  });

  it('answers the filters (device from the totals; user, type and build from the sessions) as the sessions do', async () => {
    for (const facet of [{ deviceId: ['d1', 'd4'] }, { userId: [8] }, { type: ['automation'] }, { buildName: ['b1'] }])
      for (const timeZone of ['Asia/Kolkata', 'America/New_York']) {
        const q = query({ ...facet, timeZone, from: new Date(RANGES[1]![0]), to: new Date(RANGES[1]![1]) });
        const expected = await deviceUsageFromSessions(db, q);
        expect(expected.length).toBeGreaterThan(0);
        expect(await deviceUsageReport(db, q), JSON.stringify(facet)).toEqual(expected);
      }
  });

  it('keeps the same totals when events are applied again (a replay)', async () => {
    const before = await db.query(`SELECT * FROM df_report_usage ORDER BY company_id, workspace_id, day, device_id, device_name`);
    const online = await db.query(`SELECT * FROM df_report_online ORDER BY device_id, day`);
    await db.transaction((tx) => applyAll(dfReportsProjection, tx, events.filter((e) => e.type === 'DeviceSessionEnded' || e.type === 'DeviceSessionFailed' || e.type === 'DeviceDisconnected')));
    expect((await db.query(`SELECT * FROM df_report_usage ORDER BY company_id, workspace_id, day, device_id, device_name`)).rows).toEqual(before.rows);
    expect((await db.query(`SELECT * FROM df_report_online ORDER BY device_id, day`)).rows).toEqual(online.rows);
    expect(before.rows.length).toBeGreaterThan(0);
    expect(online.rows.length).toBeGreaterThan(0);
  });
});
