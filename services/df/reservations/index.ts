import fp from 'fastify-plugin';
import { reservationRoutes } from './routes.js';

/** The feature's options: those of its routes. */
export type ReservationsFeatureOptions = Parameters<typeof reservationRoutes>[1];

/** Device bookings (`/df/api/reservations`): book, reschedule, cancel, end and rejoin. */
export const reservationsFeature = fp(
  async (app, opts: ReservationsFeatureOptions) => {
    await app.register(reservationRoutes, opts);
  },
  { name: 'df-reservations', dependencies: ['df-sessions'], fastify: '5.x' },
);

export { BookingGate } from './gate.js';
export { ReservationService } from './service.js';
export { MaintenanceConflictMailer, maintenanceConflictMail } from './maintenance-mail.js';
