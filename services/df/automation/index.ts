import fp from 'fastify-plugin';
import { automationRoutes } from './routes.js';

/** The feature's options: those of its routes. */
export type AutomationFeatureOptions = Parameters<typeof automationRoutes>[1];

/** Automation test events of a session (`/df/api/automation/sessions/{id}/test-events`). */
export const automationFeature = fp(
  async (app, opts: AutomationFeatureOptions) => {
    await app.register(automationRoutes, opts);
  },
  { name: 'df-automation', dependencies: [], fastify: '5.x' },
);
