import fp from 'fastify-plugin';
import { accessibilityRoutes } from './routes/index.js';

/** The feature's options: those of its routes. */
export type AccessibilityFeatureOptions = Parameters<typeof accessibilityRoutes>[1];

/** Accessibility audits (`/df/api/accessibility`, `/df/api/sessions/{id}/accessibility`): scans, findings, triage, exports. */
export const accessibilityFeature = fp(
  async (app, opts: AccessibilityFeatureOptions) => {
    await app.register(accessibilityRoutes, opts);
  },
  { name: 'df-accessibility', dependencies: [], fastify: '5.x' },
);

export { AccessibilityService } from './service.js';
