import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AUDIT_EVENT_TYPES, AUDIT_RESOURCE_TYPES, AUDITED_EVENT_TYPES, listAuditEvents, streamAuditEvents, type AuditEntry, type AuditFilter } from '#projections/org-audit/index.js';
import { csvCell } from '#shared/http/csv.js';
import { requirePermission } from '#shared/http/principal.js';
import type { Platform } from '../../platform.js';
import { callerOf, intId, PageQuery, pageSchema } from '../http.js';
import type { AuditChain } from './chain-service.js';

const tags = ['Audit'];

const Filters = z.object({
  workspaceId: intId.optional(),
  actorId: intId.optional(),
  resourceType: z.enum(AUDIT_RESOURCE_TYPES).optional(),
  resourceId: z.string().trim().min(1).max(64).optional(),
  eventType: z
    .enum(AUDITED_EVENT_TYPES as [string, ...string[]])
    .optional()
    .describe('One of the audit\'s event types (`GET /audit/event-types` lists them with their labels)'),
  deviceId: z.string().trim().min(1).max(128).optional().describe('Events about one device: its sessions and bookings'),
  sessionId: z.string().trim().min(1).max(128).optional().describe('Events about one device session: opened, shared, watched, ended, removed'),
  from: z.iso.datetime({ offset: true }).optional().describe('Inclusive, ISO 8601'),
  to: z.iso.datetime({ offset: true }).optional().describe('Exclusive, ISO 8601'),
});

const Entry = z
  .object({
    id: z.string(),
    position: z.string().describe('Position in the event log; orders the history'),
    occurredAt: z.string(),
    eventType: z.string(),
    eventLabel: z.string().describe('The event type in words'),
    resourceType: z.string(),
    resourceId: z.string(),
    resourceName: z.string().nullable().describe('What the resource was called when it happened: device, session, file, app version, user, workspace ...'),
    workspaceId: z.number().int().nullable(),
    actorId: z.number().int().nullable(),
    actorName: z.string().nullable().describe("The acting user's name, or how a non-user actor (a device host, the platform) is called"),
    actorEmail: z.string().nullable(),
    subjectUserId: z.number().int().nullable().describe('The person the event is about when that is not the resource itself: the viewer disconnected, the member added, the invitee'),
    subjectName: z.string().nullable(),
    subjectEmail: z.string().nullable(),
    clientAddress: z.string().nullable().describe('Address of the client whose request caused it'),
    deviceId: z.string().nullable(),
    sessionId: z.string().nullable(),
    correlationId: z.string().nullable(),
    changes: z.record(z.string(), z.object({ old: z.unknown(), new: z.unknown() })).nullable().describe('Old and new value of each field a change changed'),
    payload: z.record(z.string(), z.unknown()).describe('The event as recorded, secrets redacted'),
  })
  .meta({ id: 'AuditEvent' });

const filterOf = (q: z.infer<typeof Filters>): AuditFilter => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as AuditFilter;

const EventType = z
  .object({
    type: z.string(),
    label: z.string().describe('The type in words ("Viewer disconnected")'),
    resourceType: z.string(),
  })
  .meta({ id: 'AuditEventType' });

/** The export's columns: the first sixteen as they always were, then the names (so scripts reading by position keep working). */
const CSV_COLUMNS = [
  'occurredAt',
  'eventType',
  'resourceType',
  'resourceId',
  'workspaceId',
  'actorId',
  'actorName',
  'actorEmail',
  'clientAddress',
  'deviceId',
  'sessionId',
  'changes',
  'correlationId',
  'id',
  'position',
  'payload',
  'eventLabel',
  'resourceName',
  'subjectUserId',
  'subjectName',
  'subjectEmail',
] as const;

async function* csvLines(entries: AsyncIterable<AuditEntry>): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\r\n`;
  for await (const e of entries) yield `${CSV_COLUMNS.map((c) => csvCell(e[c])).join(',')}\r\n`;
}

async function* ndjsonLines(entries: AsyncIterable<AuditEntry>): AsyncGenerator<string> {
  for await (const e of entries) yield `${JSON.stringify(e)}\n`;
}

export interface AuditOptions {
  platform: Platform;
  chain: AuditChain;
}

/** The audit history of the caller's company (AUDIT_READ): filtered pages, and streamed exports. */
export async function auditRoutes(app: FastifyInstance, opts: AuditOptions): Promise<void> {
  const { platform } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** The history is read after every event recorded so far has reached it. */
  const caughtUp = async () => platform.readModels.waitFor(await platform.store.headPosition(), { names: ['org-audit'] });

  r.get('/audit/events', {
    schema: {
      tags,
      summary: "The company's audit history, newest first, filtered and paged (AUDIT_READ)",
      querystring: PageQuery.extend(Filters.shape),
      response: { 200: pageSchema(Entry, 'AuditEventPage') },
    },
    handler: async (request) => {
      await requirePermission(request, 'AUDIT_READ');
      await caughtUp();
      const { page, size, ...filters } = request.query;
      return listAuditEvents(platform.db, callerOf(request).companyId, filterOf(filters), page, size);
    },
  });

  r.get('/audit/event-types', {
    schema: {
      tags,
      summary: 'The event types the audit history records, each with a label in words and its resource type (AUDIT_READ)',
      response: { 200: z.array(EventType) },
    },
    handler: async (request) => {
      await requirePermission(request, 'AUDIT_READ');
      return [...AUDIT_EVENT_TYPES];
    },
  });

  r.get('/audit/events/export', {
    schema: {
      tags,
      summary: 'Export the filtered audit history as CSV or NDJSON, streamed, newest first (AUDIT_READ)',
      querystring: Filters.extend({ format: z.enum(['csv', 'ndjson']).default('csv') }),
    },
    handler: async (request, reply) => {
      await requirePermission(request, 'AUDIT_READ');
      await caughtUp();
      const { format, ...filters } = request.query;
      const entries = streamAuditEvents(platform.db, callerOf(request).companyId, filterOf(filters));
      const stamp = platform.now().toISOString().replace(/[:.]/g, '-');
      return reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-${stamp}.${format}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(format === 'csv' ? csvLines(entries) : ndjsonLines(entries)));
    },
  });
}
