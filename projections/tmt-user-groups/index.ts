export { tmtUserGroupsProjection } from './projection.js';
export * from './queries.js';
