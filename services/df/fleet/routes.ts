import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { QuotaLimits, SessionDefaults } from '#events/df/fleet.js';
import { deviceFacets } from '#projections/df-devices/index.js';
import { getUser } from '#projections/org-directory/index.js';
import { deviceUsageReport, listActivity, mostUsedDevices, reservationReport, sessionReport, sessionStats, type ReportQuery } from '#projections/df-reports/index.js';
import { AppError } from '#shared/errors.js';
import { csvCell, wantsCsv } from '#shared/http/csv.js';
import { requirePrincipal } from '#shared/http/principal.js';
import type { Platform } from '../../platform.js';
import { caller, multi, pageOf, paging } from '../http.js';
import type { SessionPort } from '../core/session-port.js';
import type { FleetService } from './service.js';

const tags = ['Device testing: dashboard, reports, quotas, settings'];
const DAY = 86_400_000;
/** The longest range a report covers. */
const MAX_RANGE_DAYS = 366;

const instant = z.iso.datetime({ offset: true }).describe('ISO 8601 with a zone');
const timeZone = z
  .string()
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'an IANA time zone such as Europe/Berlin')
  .optional()
  .describe('IANA zone the periods are cut in (default UTC)');

const ReportParams = {
  from: instant.optional().describe('Start of the range (inclusive; default 30 days before `to`)'),
  to: instant.optional().describe('End of the range (exclusive; default now)'),
  timeZone,
  groupBy: z.enum(['day', 'week']).default('day'),
  format: z.enum(['json', 'csv']).optional().describe('`csv` (or `Accept: text/csv`) answers the rows as CSV'),
  deviceId: multi(z.string().max(64)),
  userId: z.preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(z.coerce.number().int().positive().max(2_147_483_647)).max(100).optional()),
};
const SessionReportParams = { ...ReportParams, type: multi(z.enum(['manual', 'automation', 'debug'])), buildName: multi(z.string().max(200)), by: z.enum(['user', 'build', 'device', 'type']).optional() };

const envelope = <T extends z.ZodType>(row: T) => z.object({ from: z.string(), to: z.string(), timeZone: z.string(), groupBy: z.enum(['day', 'week']), rows: z.array(row) });
const DeviceUsageRow = z.object({ period: z.string(), deviceId: z.string(), deviceName: z.string(), sessions: z.number(), minutesInSession: z.number(), minutesOnline: z.number(), utilisation: z.number().nullable() }).meta({ id: 'DfDeviceUsageRow' });
const SessionRow = z.object({ period: z.string(), group: z.string().nullable(), sessions: z.number(), completed: z.number(), failed: z.number(), running: z.number(), totalMinutes: z.number(), averageMinutes: z.number() }).meta({ id: 'DfSessionReportRow' });
const ReservationRow = z.object({ period: z.string(), bookings: z.number(), bookedHours: z.number(), used: z.number(), noShows: z.number(), cancelled: z.number() }).meta({ id: 'DfReservationReportRow' });
const Counts = z.array(z.object({ value: z.string(), count: z.number() }));
const usageOf = z.object({ concurrentSessions: z.number(), sessionMinutesPerMonth: z.number(), reservationHoursPerMonth: z.number(), storageBytes: z.number(), apiKeys: z.number() });
/** Session defaults as answered: the configuration's may lie outside what a PUT accepts (a 3 s idle time-out in a test set-up). */
const SessionDefaultsView = z.object({ idleTimeoutSeconds: z.number().int(), maxSessionSeconds: z.number().int(), recordByDefault: z.boolean(), recordAutomation: z.boolean(), screenshotFormat: z.enum(['png', 'jpeg']), videoRetentionDays: z.number().int().nullable() }).meta({ id: 'DfSessionDefaults' });
const QuotasView = z.object({ plan: z.string(), limits: QuotaLimits, usage: usageOf }).meta({ id: 'DfQuotas' });


/** The rows as CSV: a header of the row fields, in the JSON answer's order, then one line per row. */
export function toCsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  return [columns.join(','), ...rows.map((r) => columns.map((c) => csvCell(r[c])).join(','))].join('\r\n') + '\r\n';
}


/** The dashboard, the three reports, quotas (read; the company's administrators change them) and session defaults. */
export async function fleetRoutes(app: FastifyInstance, opts: { platform: Platform; fleet: FleetService; sessions: SessionPort }) {
  const { platform, fleet, sessions } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  const reportQuery = (c: { companyId: number; workspaceId: number }, q: z.output<z.ZodObject<typeof ReportParams>> & { type?: string[] | undefined; buildName?: string[] | undefined }): ReportQuery => {
    const now = platform.now();
    const to = q.to ? new Date(q.to) : now;
    const from = q.from ? new Date(q.from) : new Date(to.getTime() - 30 * DAY);
    if (from.getTime() >= to.getTime()) throw new AppError('VALIDATION_FAILED', '`from` must be before `to`', { details: [{ path: 'from', message: 'must be before to' }] });
    if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY) throw new AppError('VALIDATION_FAILED', `A report covers at most ${MAX_RANGE_DAYS} days`, { details: [{ path: 'from', message: `at most ${MAX_RANGE_DAYS} days before to` }] });
    return {
      companyId: c.companyId,
      workspaceId: c.workspaceId,
      from,
      to,
      now,
      timeZone: q.timeZone ?? 'UTC',
      groupBy: q.groupBy,
      deviceId: q.deviceId,
      userId: q.userId,
      type: q.type,
      buildName: q.buildName,
    };
  };
  /** A report of the caller's company over the query's period, its rows from `load`: JSON (in the envelope) or CSV. */
  const report = async (request: FastifyRequest, reply: FastifyReply, query: Parameters<typeof reportQuery>[1], row: z.ZodObject, name: string, load: (q: ReportQuery) => Promise<unknown[]>) => {
    const q = reportQuery(await caller(request, 'df:report:read'), query);
    const rows = (await load(q)) as Record<string, unknown>[];
    if (wantsCsv(request, query.format)) {
      reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}.csv"`);
      return toCsv(Object.keys(row.shape), rows);
    }
    return { from: q.from.toISOString(), to: q.to.toISOString(), timeZone: q.timeZone, groupBy: q.groupBy, rows };
  };

  r.get('/api/dashboard/stats', {
    schema: {
      tags,
      summary: 'Fleet statistics: devices by status, platform and host; sessions running now; bookings today; failures in the last day',
      querystring: z.object({ timeZone }),
      response: {
        200: z.object({ devices: z.object({ total: z.number(), byStatus: Counts, byPlatform: Counts, byHost: Counts }), sessionsRunning: z.number(), bookingsToday: z.number(), failuresLastDay: z.number(), at: z.string() }).meta({ id: 'DfDashboardStats' }),
      },
    },
    handler: async (request) => {
      const c = await caller(request, 'df:report:read');
      const now = platform.now();
      const [facets, stats] = await Promise.all([deviceFacets(platform.db, sessions.deviceScope(c), {}), sessionStats(platform.db, c, now, request.query.timeZone ?? 'UTC')]);
      const total = facets.status.reduce((n, f) => n + f.count, 0);
      return {
        devices: { total, byStatus: facets.status, byPlatform: facets.platform, byHost: facets.nodeName },
        sessionsRunning: stats.running,
        bookingsToday: stats.bookings,
        failuresLastDay: stats.failures,
        at: now.toISOString(),
      };
    },
  });

  r.get('/api/dashboard/activity', {
    schema: {
      tags,
      summary: "Recent activity of the workspace, newest first: sessions, bookings, installs, shares",
      querystring: z.object({ ...paging, kind: multi(z.string().max(64)) }),
      response: {
        200: pageOf(z.object({ id: z.string(), kind: z.string(), at: z.string(), actorId: z.string().nullable(), deviceId: z.string().nullable(), sessionId: z.string().nullable(), reservationId: z.string().nullable(), detail: z.record(z.string(), z.unknown()) }).meta({ id: 'DfActivity' })),
      },
    },
    handler: async (request) => listActivity(platform.db, await caller(request, 'df:report:read'), request.query, request.query.kind),
  });

  r.get('/api/dashboard/most-used-devices', {
    schema: {
      tags,
      summary: 'The devices with the most minutes in session over a period (default the last 30 days)',
      querystring: z.object({ from: ReportParams.from, to: ReportParams.to, limit: z.coerce.number().int().min(1).max(100).default(10) }),
      response: { 200: z.array(z.object({ deviceId: z.string(), deviceName: z.string(), sessions: z.number(), minutesInSession: z.number() }).meta({ id: 'DfMostUsedDevice' })) },
    },
    handler: async (request) => {
      const c = await caller(request, 'df:report:read');
      const q = reportQuery(c, { ...request.query, groupBy: 'day' } as never);
      return mostUsedDevices(platform.db, c, q.from, q.to, q.now, request.query.limit);
    },
  });

  r.get('/api/reports/device-usage', {
    schema: { tags, summary: 'Minutes in session per device and period, and utilisation as a share of online time (JSON or CSV)', querystring: z.object(ReportParams), response: { 200: envelope(DeviceUsageRow) } },
    handler: async (request, reply) => report(request, reply, request.query, DeviceUsageRow, 'device-usage', (q) => deviceUsageReport(platform.db, q)) as never,
  });

  r.get('/api/reports/sessions', {
    schema: { tags, summary: 'Sessions per period: count, outcome, duration; optionally by user, build, device or type (JSON or CSV)', querystring: z.object(SessionReportParams), response: { 200: envelope(SessionRow) } },
    handler: async (request, reply) => report(request, reply, request.query, SessionRow, 'sessions', (q) => sessionReport(platform.db, q, request.query.by)) as never,
  });

  r.get('/api/reports/reservations', {
    schema: { tags, summary: 'Bookings per period: booked, used, no-shows, cancelled (JSON or CSV)', querystring: z.object(ReportParams), response: { 200: envelope(ReservationRow) } },
    handler: async (request, reply) => report(request, reply, request.query, ReservationRow, 'reservations', (q) => reservationReport(platform.db, q)) as never,
  });

  r.get('/api/quotas', {
    schema: { tags, summary: "The company's plan limits (null: no limit) and live usage", response: { 200: QuotasView } },
    handler: async (request) => fleet.quotas((await caller(request, 'df:report:read')).companyId),
  });

  r.put('/api/quotas', {
    schema: {
      tags,
      summary: "Change the company's plan: its name and limits (company administrators only; null removes a limit, an absent key keeps it)",
      body: z.object({ plan: z.string().trim().min(1).max(64).optional(), limits: QuotaLimits.partial().optional() }),
      response: { 200: QuotasView },
    },
    handler: async (request) => {
      const c = await caller(request, 'df:report:read');
      await requireCompanyAdmin(platform, requirePrincipal(request).userId, c.companyId);
      return fleet.setPlan(c, request.body);
    },
  });

  r.get('/api/settings/session-defaults', {
    schema: { tags, summary: "The workspace's session defaults (the configuration's until set)", response: { 200: SessionDefaultsView } },
    handler: async (request) => fleet.sessionDefaults((await caller(request, 'df:session:read')).workspaceId),
  });

  r.put('/api/settings/session-defaults', {
    schema: { tags, summary: "Change the workspace's session defaults (new sessions take them; audited)", body: SessionDefaults, response: { 200: SessionDefaultsView } },
    handler: async (request) => fleet.setSessionDefaults(await caller(request, 'df:settings:manage'), request.body),
  });
}

/** Plan limits are the company administrators' (the organization's `isAdmin`), not a workspace permission. */
async function requireCompanyAdmin(platform: Platform, userId: number, companyId: number): Promise<void> {
  if (!(await getUser(platform.db, companyId, userId))?.isAdmin) throw new AppError('FORBIDDEN', "Only the company's administrators change its plan limits");
}
