import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ACCESS_REVIEW_DECISIONS } from '#events/organization/access-reviews.js';
import { commandContext } from '#shared/es/index.js';
import { wantsCsv } from '#shared/http/csv.js';
import { requirePermission } from '#shared/http/principal.js';
import { callerOf, intId, PageQuery, pageSchema, requestActor } from '../../http.js';
import { evidenceCsv, evidenceOf } from '../evidence.js';
import type { AccessReviewOptions } from '../options.js';
import type { Reviewer } from '../service.js';
import { AccessReviewDetail, AccessReviewEvidence, AccessReviewItem, AccessReviewSummary, ItemParams, ReviewParams, tags } from './schemas.js';

/** The caller as a reviewer, once they hold AUDIT_READ (the access review's own key). */
async function reviewerOf(request: FastifyRequest): Promise<Reviewer> {
  await requirePermission(request, 'AUDIT_READ');
  const p = callerOf(request);
  return { userId: p.userId, companyId: p.companyId, workspaceId: request.workspace?.id ?? null };
}

/** `/access-reviews`: reviews of a workspace's grants — started, decided grant by grant, completed (revoking what was marked), exported as evidence (AUDIT_READ). */
export async function accessReviewWorkflowRoutes(app: FastifyInstance, opts: AccessReviewOptions): Promise<void> {
  const { platform, reviews } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const context = (request: FastifyRequest) => commandContext(platform, requestActor(request));

  r.get('/access-reviews', {
    schema: {
      tags,
      summary: "The company's access reviews, newest first (AUDIT_READ)",
      querystring: PageQuery.extend({ workspaceId: intId.optional().describe('Only the reviews of this workspace') }),
      response: { 200: pageSchema(AccessReviewSummary, 'AccessReviewPage') },
    },
    handler: async (request) => {
      const { companyId } = await reviewerOf(request);
      return reviews.list(companyId, request.query);
    },
  });

  r.post('/access-reviews', {
    schema: {
      tags,
      summary: 'Start a review of a workspace: its grants as the history folds them now, each to be marked keep or revoke (AUDIT_READ)',
      description: "404 for a workspace that is not the caller's company's (or no longer exists).",
      body: z.object({ workspaceId: intId }),
      response: { 201: AccessReviewDetail },
    },
    handler: async (request, reply) => {
      const reviewer = await reviewerOf(request);
      return reply.code(201).send(await reviews.start(reviewer, request.body.workspaceId, context(request)));
    },
  });

  r.get('/access-reviews/:id', {
    schema: { tags, summary: 'One access review with its grants and their decisions (AUDIT_READ)', params: ReviewParams, response: { 200: AccessReviewDetail } },
    handler: async (request) => reviews.get((await reviewerOf(request)).companyId, request.params.id),
  });

  r.put('/access-reviews/:id/items/:itemId', {
    schema: {
      tags,
      summary: 'Mark one grant of an open review keep or revoke, with a note; a later decision replaces it (AUDIT_READ)',
      description:
        '409 `ACCESS_REVIEW_COMPLETED` once the review is completed; 404 for an item the review does not have; 409 `CONFLICT` for revoking your own administrator. Nothing is revoked until the review is completed.',
      params: ItemParams,
      body: z.object({ decision: z.enum(ACCESS_REVIEW_DECISIONS), note: z.string().trim().max(1000).optional() }),
      response: { 200: AccessReviewItem },
    },
    handler: async (request) => {
      const reviewer = await reviewerOf(request);
      const { decision, note } = request.body;
      return reviews.decide(reviewer, request.params.id, request.params.itemId, decision, note ? note : null, context(request));
    },
  });

  r.post('/access-reviews/:id/complete', {
    schema: {
      tags,
      summary: 'Complete a review: each grant marked revoke is revoked by its ordinary command, and the outcome of each is recorded (AUDIT_READ, and the key each revocation asks)',
      description:
        "409 `ACCESS_REVIEW_UNDECIDED` (naming each grant in `details`) while a grant has no decision; 409 `ACCESS_REVIEW_COMPLETED` the second time; 403 without the key a revocation's own route asks (WORKSPACE_MANAGE in the workspace, TEAM_MANAGE, USER_MANAGE, USER_ADMIN_MANAGE); 409 `CONFLICT` for your own administrator, `WORKSPACE_ARCHIVED` for grants of an archived workspace. Refused, nothing changes. A grant gone since the start counts as done (`already-gone`).",
      params: ReviewParams,
      response: { 200: AccessReviewDetail },
    },
    handler: async (request) => reviews.complete(await reviewerOf(request), request.params.id, context(request)),
  });

  r.get('/access-reviews/:id/evidence', {
    schema: {
      tags,
      summary: 'The review as evidence: who started and completed it and when, the workspace, each grant with its decision, who decided it and when, the note and the revocation’s outcome (AUDIT_READ)',
      description: 'JSON, or CSV (one row per grant) with `format=csv` or `Accept: text/csv`.',
      params: ReviewParams,
      querystring: z.object({ format: z.enum(['json', 'csv']).optional() }),
      response: { 200: AccessReviewEvidence },
    },
    handler: async (request, reply) => {
      const { companyId } = await reviewerOf(request);
      const evidence = evidenceOf(await reviews.get(companyId, request.params.id), platform.now());
      const csv = wantsCsv(request, request.query.format);
      reply.header('cache-control', 'no-store').header('content-disposition', `attachment; filename="access-review-${evidence.id}-evidence.${csv ? 'csv' : 'json'}"`);
      if (!csv) return evidence;
      reply.type('text/csv; charset=utf-8');
      // A string with a non-JSON content type is sent as it is, not through the JSON schema's serializer.
      return evidenceCsv(evidence) as unknown as typeof evidence;
    },
  });
}
