import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listReservations } from '#projections/df-reservations/index.js';
import { getUser } from '#projections/org-directory/index.js';
import { AppError } from '#shared/errors.js';
import { RESERVATION_STATUSES } from '#events/df/reservations.js';
import { requirePermission } from '#shared/http/principal.js';
import type { Platform } from '../../platform.js';
import { caller, idParam, multi, pageOf, paging, queryBoolean, workspaceLookup } from '../http.js';
import { SessionSchema } from '../sessions/index.js';
import { MAX_RESERVATION_MS, START_AT_ONCE_MS } from './decide.js';
import type { ReservationService } from './service.js';
import type { Caller } from '../http.js';

export const ReservationSchema = z
  .object({
    id: z.string(),
    deviceId: z.string(),
    userId: z.number().int(),
    workspaceId: z.number().int(),
    startAt: z.string(),
    endAt: z.string(),
    status: z.enum(RESERVATION_STATUSES),
    note: z.string().nullable(),
    createdAt: z.string(),
    maintenanceConflict: z
      .object({ reason: z.string(), until: z.string(), notedAt: z.string() })
      .nullable()
      .meta({
        description:
          'An administrator took the device into maintenance for part of the booking (`POST /df/api/devices/{id}/maintenance`): why, until when, and when the booking was told. The booking is kept (the maintenance may end early); while the maintenance lasts, sessions on the device are refused with 409 `DEVICE_UNHEALTHY`. A booking made or moved into a maintenance under way is told the same way at once. Null when no maintenance falls in its range (lifted when the maintenance ends or the booking is moved out of it).',
      }),
  })
  .meta({ id: 'DfReservation' });

/** An instant as ISO 8601 with its zone (`Z` or `+02:00`). */
const Instant = z.iso.datetime({ offset: true }).transform((v) => new Date(v));
const Note = z.string().trim().max(2_000).nullable();
const tags = ['Device testing: reservations'];
const Params = z.object({ reservationId: idParam });
const MADE_IN_MAINTENANCE =
  'Made into a maintenance of the device under way, the booking is kept and answered with its `maintenanceConflict` (and the `reservation.maintenance_conflict` webhook). 404 for a device the caller may not see.';
const MOVED_IN_MAINTENANCE = 'Moved into a maintenance of the device under way, it is told (`maintenanceConflict`, the `reservation.maintenance_conflict` webhook); moved out of it, the warning is lifted.';

/**
 * `/df/api/reservations`: device bookings. Reading needs `df:device:read` (a booking is part of a
 * device's availability, which everyone who sees the device may know); creating and changing need
 * `df:reservation:manage`, and another user's booking also `df:session:manage`.
 */
export async function reservationRoutes(app: FastifyInstance, opts: { platform: Platform; reservations: ReservationService }): Promise<void> {
  const { platform, reservations } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** Range rules that need the clock: not in the past (a minute's slack), at most 7 days, the end after the start. */
  const checkRange = (input: { startAt?: Date | undefined; endAt?: Date | undefined }, ctx: z.RefinementCtx, create: boolean) => {
    // A field that failed its own check is reported already (and is not a Date).
    const date = (d: unknown) => (d instanceof Date ? d : undefined);
    const v = { startAt: date(input.startAt), endAt: date(input.endAt) };
    const now = platform.now().getTime();
    // A change may repeat the start of a booking that has begun; the decider refuses a new start in the past.
    if (create && v.startAt && v.startAt.getTime() < now - START_AT_ONCE_MS) ctx.addIssue({ code: 'custom', path: ['startAt'], message: 'must not be in the past' });
    if (v.endAt && v.endAt.getTime() <= now) ctx.addIssue({ code: 'custom', path: ['endAt'], message: 'must be in the future' });
    if (v.startAt && v.endAt) {
      if (v.endAt.getTime() <= v.startAt.getTime()) ctx.addIssue({ code: 'custom', path: ['endAt'], message: 'must be after startAt' });
      else if (v.endAt.getTime() - v.startAt.getTime() > MAX_RESERVATION_MS) ctx.addIssue({ code: 'custom', path: ['endAt'], message: 'at most 7 days after startAt' });
    }
  };
  const CreateBody = z.object({ deviceId: idParam, startAt: Instant, endAt: Instant, note: Note.optional() }).superRefine((v, ctx) => checkRange(v, ctx, true));
  const UpdateBody = z
    .object({ startAt: Instant.optional(), endAt: Instant.optional(), note: Note.optional() })
    .superRefine((v, ctx) => {
      if (v.startAt === undefined && v.endAt === undefined && v.note === undefined) ctx.addIssue({ code: 'custom', path: [], message: 'change startAt, endAt or note' });
      checkRange(v, ctx, false);
    });
  const ListQuery = z.object({
    ...paging,
    deviceId: multi(idParam),
    userId: multi(z.string().regex(/^\d{1,10}$/, 'a user id')),
    status: multi(z.enum(RESERVATION_STATUSES)),
    from: Instant.optional(),
    to: Instant.optional(),
    mine: queryBoolean,
  });

  const readable = workspaceLookup('reservation', 'df:device:read', (c, reservationId) => reservations.get(c, reservationId));
  /** A booking to change: its holder with `df:reservation:manage`, anyone else also with `df:session:manage`. */
  const changeable = async (request: FastifyRequest, reservationId: string) => {
    const c = await caller(request, 'df:reservation:manage');
    const reservation = await reservations.get(c, reservationId);
    if (reservation.userId !== c.userId) await requirePermission(request, 'df:session:manage');
    return { c, reservation };
  };

  /**
   * A refused overlap (409 RESERVATION_OVERLAP) names each booking in the way by its range, and by its
   * holder's name (`holderName`) when the caller may see the company's users (`USER_READ`) or holds it.
   */
  const namingHolders = async <T>(request: FastifyRequest, c: Caller, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'RESERVATION_OVERLAP' || !err.details) throw err;
      const seesUsers = (await request.permissions()).has('USER_READ');
      const details = await Promise.all(
        err.details.map(async (d) => {
          if (typeof d.userId !== 'number' || (!seesUsers && d.userId !== c.userId)) return d;
          const holder = await getUser(platform.db, c.companyId, d.userId);
          return holder ? { ...d, holderName: holder.name } : d;
        }),
      );
      throw new AppError(err.code, err.message, { details, cause: err });
    }
  };

  r.get('/api/reservations', {
    schema: { tags, summary: 'List reservations of the workspace', querystring: ListQuery, response: { 200: pageOf(ReservationSchema) } },
    handler: async (request) => {
      const c = await caller(request, 'df:device:read');
      const q = request.query;
      const users = [...(q.userId?.map(Number) ?? [])];
      const userId = q.mine ? (users.length === 0 || users.includes(c.userId) ? [c.userId] : [-1]) : users;
      return listReservations(
        platform.db,
        c,
        { deviceId: q.deviceId, userId, status: q.status, ...(q.from ? { from: q.from } : {}), ...(q.to ? { to: q.to } : {}) },
        { page: q.page, size: q.size, sortDir: q.sortDir ?? 'asc' },
      );
    },
  });

  r.post('/api/reservations', {
    schema: { tags, summary: 'Book a device for a time range', description: MADE_IN_MAINTENANCE, body: CreateBody, response: { 201: ReservationSchema } },
    handler: async (request, reply) => {
      const c = await caller(request, 'df:reservation:manage');
      const reservation = await namingHolders(request, c, () => reservations.create(c, request.body));
      reply.code(201);
      return reservation;
    },
  });

  r.get('/api/reservations/:reservationId', {
    schema: { tags, summary: 'One reservation', params: Params, response: { 200: ReservationSchema } },
    handler: async (request) => {
      const { reservation } = await readable(request, request.params.reservationId);
      const { companyId: _c, lastSessionId: _s, ...view } = reservation;
      return view;
    },
  });

  r.put('/api/reservations/:reservationId', {
    schema: { tags, summary: 'Change the range or note of a reservation', description: MOVED_IN_MAINTENANCE, params: Params, body: UpdateBody, response: { 200: ReservationSchema } },
    handler: async (request) => {
      const { c, reservation } = await changeable(request, request.params.reservationId);
      return namingHolders(request, c, () => reservations.update(c, reservation, request.body));
    },
  });

  r.delete('/api/reservations/:reservationId', {
    schema: { tags, summary: 'Cancel a scheduled reservation (an active one is ended)', params: Params, response: { 200: ReservationSchema } },
    handler: async (request) => {
      const { c, reservation } = await changeable(request, request.params.reservationId);
      return reservations.cancel(c, reservation);
    },
  });

  r.post('/api/reservations/:reservationId/end', {
    schema: { tags, summary: 'End an active reservation (frees the device at once)', params: Params, response: { 200: ReservationSchema } },
    handler: async (request) => {
      const { c, reservation } = await changeable(request, request.params.reservationId);
      return reservations.end(c, reservation);
    },
  });

  r.post('/api/reservations/:reservationId/rejoin', {
    schema: {
      tags,
      summary: 'Open a session on the reserved device again (its holder)',
      params: Params,
      body: z.object({ name: z.string().trim().min(1).max(200).optional() }).optional(),
      response: { 201: SessionSchema },
    },
    handler: async (request, reply) => {
      const c = await caller(request, 'df:session:create');
      const reservation = await reservations.get(c, request.params.reservationId);
      const session = await reservations.rejoin(c, reservation, { name: request.body?.name });
      reply.code(201);
      return session;
    },
  });
}
