import fp from 'fastify-plugin';
import { hostRoutes, type HostRoutesOptions } from './routes.js';

/** Device hosts (`/df/api/hosts`): enrolment, tokens, scope, and moving devices between hosts. */
export const hostsFeature = fp(
  async (app, opts: HostRoutesOptions) => {
    await app.register(hostRoutes, opts);
  },
  { name: 'df-hosts', dependencies: ['df-devices'], fastify: '5.x' },
);

export type { HostRoutesOptions as HostsFeatureOptions } from './routes.js';
export { HostEnrolments } from './enrolments.js';
export { HostRegistry } from './registry.js';
