export { tmtTestCasesProjection } from './projection.js';
export * from './queries.js';
