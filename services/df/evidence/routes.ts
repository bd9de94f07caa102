import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { undeletedSessionById } from '#projections/df-sessions/index.js';
import { EVIDENCE_FORMAT } from '#shared/audit/session-evidence.js';
import { AppError } from '#shared/errors.js';
import { requirePermission } from '#shared/http/principal.js';
import type { Platform } from '../../platform.js';
import { sessionContent } from '../core/session-access.js';
import { idParam } from '../http.js';
import type { SessionEvidenceBuilder } from './evidence.js';

const tags = ['Device testing: sessions'];

const Artifact = z.object({
  id: z.string(),
  type: z.string().describe('screenshot, log, recording or video'),
  name: z.string(),
  fileName: z.string().describe('The name to save it under, unique within the manifest'),
  contentType: z.string(),
  size: z.number().int(),
  sha256: z.string().describe('SHA-256 of the stored bytes, hex'),
  createdAt: z.string(),
  download: z.string().describe('The API path that answers its bytes'),
});
const ChainEvent = z.object({
  chain: z.string(),
  seq: z.number().int(),
  position: z.string(),
  hash: z.string(),
  previousHash: z.string().describe("The hash of the chain's event before it: hash = SHA-256(previousHash ‖ encoded)"),
  encoded: z.string().describe('The canonical encoding the hash covers, as in the audit bundle'),
});
const Evidence = z
  .object({
    format: z.literal(EVIDENCE_FORMAT),
    manifest: z.object({
      format: z.literal(EVIDENCE_FORMAT),
      sessionId: z.string(),
      companyId: z.number().int(),
      workspaceId: z.number().int(),
      exportedAt: z.string(),
      session: z.record(z.string(), z.unknown()),
      timeline: z.array(z.record(z.string(), z.unknown())),
      webdriverLog: z.array(z.record(z.string(), z.unknown())),
      artifacts: z.array(Artifact),
      unavailable: z.array(z.object({ id: z.string(), type: z.string(), name: z.string(), reason: z.string() })).optional(),
      events: z.array(ChainEvent),
    }),
    signature: z.object({ alg: z.literal('EdDSA'), keyId: z.string(), value: z.string().describe('Ed25519 over the canonical encoding of `manifest`, base64url') }),
    keys: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }),
  })
  .meta({ id: 'DfSessionEvidence' });

export interface EvidenceRoutesOptions {
  platform: Platform;
  evidence: SessionEvidenceBuilder;
}

/**
 * `GET /df/api/sessions/{id}/evidence`: the session's evidence, signed (docs/modules/device-testing.md,
 * "A session's evidence"). Whoever may see the session's content and holds `AUDIT_READ`; an open session
 * is 409 `SESSION_OPEN`.
 */
export async function evidenceRoutes(app: FastifyInstance, opts: EvidenceRoutesOptions): Promise<void> {
  const { platform, evidence } = opts;
  app.withTypeProvider<ZodTypeProvider>().get('/api/sessions/:sessionId/evidence', {
    schema: {
      tags,
      summary: "The session's evidence: its record, timeline, WebDriver command log, artifacts by SHA-256 and chained events, signed with the audit key (content access and AUDIT_READ)",
      params: z.object({ sessionId: idParam }),
      response: { 200: { description: 'One JSON document (qa-session-evidence/1) that `dfctl audit verify` checks offline', content: { 'application/json': { schema: Evidence } } } },
    },
    handler: async (request, reply) => {
      const { session: seen } = await sessionContent(platform.db, request, request.params.sessionId);
      await requirePermission(request, 'AUDIT_READ');
      if (seen.status === 'starting' || seen.status === 'active') throw new AppError('SESSION_OPEN', 'The session is still open: its evidence is given once it has ended');
      // What the session's end stored (its logs, its video) is in the read model before it is listed.
      await platform.readModels.waitFor(await platform.store.headPosition(), { names: ['df-sessions'] });
      const session = await undeletedSessionById(platform.db, seen.id);
      if (!session) throw new AppError('NOT_FOUND', 'Session not found');
      const document = await evidence.build(session);
      // The bytes as they were signed: a Buffer is sent as it is, never re-serialised (nor any member stripped) by the schema.
      const bytes = Buffer.from(JSON.stringify(document), 'utf8') as unknown as z.infer<typeof Evidence>;
      return reply
        .type('application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="session-evidence-${session.id}.json"`)
        .header('cache-control', 'no-store')
        .send(bytes);
    },
  });
}
