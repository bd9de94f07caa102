export { dfReservationsProjection } from './projection.js';
export * from './queries.js';
