import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePermission } from '#shared/http/principal.js';
import type { Platform } from '../../platform.js';
import { callerOf } from '../http.js';
import type { AuditChain } from './chain-service.js';

const tags = ['Audit'];

const Range = z.object({
  from: z.string().trim().min(1).max(64).optional().describe('Inclusive: a position in the event log (digits) or an ISO 8601 time, not in the future'),
  to: z.string().trim().min(1).max(64).optional().describe('Inclusive: a position or an ISO 8601 time, not in the future; absent: up to the chain\'s head'),
});

const Verification = z
  .object({
    ok: z.boolean(),
    events: z.number().int().describe('Events checked'),
    checkpoints: z.number().int().describe('Signed checkpoints checked'),
    firstBadPosition: z.string().optional().describe('The position where the chain first breaks'),
    reason: z.string().optional().describe('What is wrong there, in words'),
  })
  .meta({ id: 'AuditVerification' });

const PublicKey = z
  .object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: z.string(), kid: z.string(), alg: z.string(), use: z.string() })
  .meta({ id: 'AuditSigningKey' });

export interface AuditChainOptions {
  platform: Platform;
  chain: AuditChain;
}

/** The company's chain: verification against the database, the export bundle, and the signing keys. */
export async function auditChainRoutes(app: FastifyInstance, opts: AuditChainOptions): Promise<void> {
  const { platform, chain } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/audit/verify', {
    schema: {
      tags,
      summary: "Verifies the company's chain of events between two bounds: hashes, order, signed checkpoints (AUDIT_READ)",
      querystring: Range,
      response: { 200: Verification },
    },
    handler: async (request) => {
      await requirePermission(request, 'AUDIT_READ');
      return chain.verify(callerOf(request).companyId, request.query.from, request.query.to);
    },
  });

  r.get('/audit/bundle', {
    schema: {
      tags,
      summary: "An export of the company's chain (JSON lines: a header with the public keys, then events and checkpoints) that `dfctl audit verify` checks offline (AUDIT_READ)",
      querystring: Range,
    },
    handler: async (request, reply) => {
      await requirePermission(request, 'AUDIT_READ');
      const { companyId } = callerOf(request);
      const lines = await chain.bundle(companyId, request.query.from, request.query.to);
      const stamp = platform.now().toISOString().replace(/[:.]/g, '-');
      return reply
        .type('application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-bundle-${companyId}-${stamp}.jsonl"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(lines));
    },
  });

  r.get('/audit/keys', {
    schema: {
      tags,
      summary: "The installation's checkpoint signing keys, every one ever used (JWK set, Ed25519)",
      response: { 200: z.object({ keys: z.array(PublicKey) }).meta({ id: 'AuditSigningKeys' }) },
    },
    handler: async (request) => {
      await requirePermission(request, 'AUDIT_READ');
      await chain.ready();
      return { keys: (await chain.keys.publicKeys()) as z.infer<typeof PublicKey>[] };
    },
  });
}
