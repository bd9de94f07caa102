export { signInLogProjection } from './projection.js';
export { listSignIns, type SignInEntry } from './queries.js';
