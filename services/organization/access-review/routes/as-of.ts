import { personalDataOf } from '#shared/pii/index.js';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { wantsCsv } from '#shared/http/csv.js';
import { requirePermission } from '#shared/http/principal.js';
import { ALL_PERMISSION_KEYS } from '#shared/permissions.js';
import { callerOf, intId } from '../../http.js';
import { accessReviewAt, reviewTime } from '../reads.js';
import { reviewCsv } from '../csv.js';
import type { AccessReviewOptions } from '../options.js';

const tags = ['Audit'];

const Query = z.object({
  workspaceId: intId.describe("A workspace of the caller's company (404 otherwise, and for one that did not exist at `at`)"),
  at: z.string().trim().min(1).max(64).optional().describe('The moment reviewed: an ISO 8601 time with its zone (2026-11-01T12:00:00Z), or a date (its midnight UTC); absent: now. Anything else: 400 `VALIDATION_FAILED`; in the future: 400 `AT_IN_FUTURE`'),
  permissionKey: z
    .enum(ALL_PERMISSION_KEYS as [string, ...string[]])
    .optional()
    .describe('Adds who could use this key in the workspace at that moment, and through what'),
  format: z.enum(['json', 'csv']).optional().describe('`csv` (or `Accept: text/csv`): one row per person and grant'),
});

const AccessPath = z
  .object({ via: z.enum(['admin', 'user', 'team']), teamId: z.number().int().optional(), teamName: z.string().optional() })
  .describe('How the person could enter the workspace: company administrator, a grant to them, or a grant to a team of theirs');

const ReviewedRole = z.object({
  id: z.number().int(),
  name: z.string(),
  scope: z.enum(['company', 'workspace']).describe('`company`: a role of the person everywhere; `workspace`: a member role in this workspace'),
  builtIn: z.boolean(),
  permissions: z.array(z.string()).describe('The keys the role gave at that moment'),
});

const Person = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  status: z.enum(['passive', 'active', 'deactivated']),
  isAdmin: z.boolean(),
  access: z.array(AccessPath).describe('Empty: member roles held here, but no way in'),
  teams: z.array(z.object({ id: z.number().int(), name: z.string() })),
  roles: z.array(ReviewedRole),
  permissions: z.array(z.string()).describe('The keys held in the workspace then'),
});

const KeySource = z.object({
  kind: z.enum(['admin', 'role']),
  roleId: z.number().int().optional(),
  roleName: z.string().optional(),
  scope: z.enum(['company', 'workspace']).optional(),
});

export const AccessReviewSchema = z
  .object({
    at: z.string().describe('The moment reviewed'),
    workspace: z.object({ id: z.number().int(), name: z.string(), archived: z.boolean() }),
    people: z.array(Person),
    grants: z.object({
      users: z.array(z.object({ id: z.number().int(), name: z.string(), email: z.string() })),
      teams: z.array(z.object({ id: z.number().int(), name: z.string(), memberIds: z.array(z.number().int()) })),
    }),
    permissionKey: z
      .object({
        key: z.string(),
        holders: z.array(z.object({ userId: z.number().int(), name: z.string(), email: z.string(), through: z.array(KeySource), access: z.array(AccessPath) })),
      })
      .optional()
      .describe('Active people who could use the key then'),
  })
  .meta({ id: 'AccessReview' });

/** `GET /access-review`: who held what in a workspace at a moment, folded from the company's events (AUDIT_READ). */
export async function accessReviewRoutes(app: FastifyInstance, opts: AccessReviewOptions): Promise<void> {
  const { platform } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/access-review', {
    schema: {
      tags,
      summary: 'Who held which roles, keys, team memberships and workspace grants in a workspace at a moment, rebuilt from the events (AUDIT_READ)',
      description:
        "Folded from the company's events up to `at`, not read from today's tables. JSON, or CSV with `format=csv` or `Accept: text/csv`. 400 `VALIDATION_FAILED` for an `at` that is not a time, 400 `AT_IN_FUTURE` for one in the future, 404 for a workspace of another company or one that did not exist then.",
      querystring: Query,
      response: { 200: AccessReviewSchema },
    },
    handler: async (request, reply) => {
      await requirePermission(request, 'AUDIT_READ');
      const { workspaceId, permissionKey, format } = request.query;
      const at = reviewTime(request.query.at, platform.now());
      const review = await accessReviewAt(platform.db, callerOf(request).companyId, workspaceId, at, permissionKey, personalDataOf(platform.store));
      const answer = { at: at.toISOString(), ...review };
      reply.header('cache-control', 'no-store');
      if (!wantsCsv(request, format)) return answer;
      const stamp = answer.at.replace(/[:.]/g, '-');
      reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="access-review-${workspaceId}-${stamp}.csv"`);
      // A string with a non-JSON content type is sent as it is, not through the JSON schema's serializer.
      return reviewCsv(answer) as unknown as typeof answer;
    },
  });
}
