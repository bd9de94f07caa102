export { signInLogProjection } from './projection.js';
