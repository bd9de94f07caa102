import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import { evidenceRoutes, type EvidenceRoutesOptions } from './routes.js';

export type { EvidenceRoutesOptions as EvidenceFeatureOptions };

/** A session's evidence (`/df/api/sessions/{id}/evidence`): one signed document per ended session that verifies offline. */
export const evidenceFeature = fp(routePlugins(evidenceRoutes), { name: 'df-evidence', dependencies: ['df-sessions'], fastify: '5.x' });

export { SessionEvidenceBuilder, type EvidenceSigner } from './evidence.js';
