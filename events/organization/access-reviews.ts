import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';
import { tenantScope } from '../fields.js';

/**
 * The kinds of grant a review of a workspace holds, each revoked by the ordinary command of its kind:
 * a user's or team's access grant to the workspace, a membership of a team granted it, a member role in
 * it, a company role of someone who can enter it, and company administrator.
 */
export const ACCESS_REVIEW_ITEM_KINDS = ['workspace-user', 'workspace-team', 'team-member', 'workspace-role', 'company-role', 'admin'] as const;
export type AccessReviewItemKind = (typeof ACCESS_REVIEW_ITEM_KINDS)[number];

export const ACCESS_REVIEW_DECISIONS = ['keep', 'revoke'] as const;
export type AccessReviewDecision = (typeof ACCESS_REVIEW_DECISIONS)[number];

/** What came of a revocation: done now, gone already (since the review started), or refused by its command. */
export const ACCESS_REVIEW_RESULTS = ['revoked', 'already-gone', 'failed'] as const;
export type AccessReviewResult = (typeof ACCESS_REVIEW_RESULTS)[number];

const id = z.number().int();
const itemId = z.string().regex(/^[a-z-]+(-\d+){1,2}$/);

/** One grant as it stood when the review started, with the names it had then. */
const item = z.object({
  itemId,
  kind: z.enum(ACCESS_REVIEW_ITEM_KINDS),
  userId: id.optional(),
  userName: z.string().optional(),
  userEmail: z.string().optional(),
  teamId: id.optional(),
  teamName: z.string().optional(),
  roleId: id.optional(),
  roleName: z.string().optional(),
  /** The keys a role gave at the start. */
  permissions: z.array(z.string()).optional(),
});
export type AccessReviewItem = z.output<typeof item>;

const outcome = z.object({ itemId, result: z.enum(ACCESS_REVIEW_RESULTS), code: z.string().optional(), message: z.string().optional() });
export type AccessReviewOutcome = z.output<typeof outcome>;

/**
 * Events of the `access-review-<id>` stream: a review of one workspace's grants started (who, the grants
 * then), a keep or revoke decision per grant (who; a later one replaces it), and its completion with the
 * decisions it carried out and what came of each revocation. The revocations themselves are the ordinary
 * events of the grants' own streams.
 */
export const accessReviewEvents = defineEvents({
  AccessReviewStarted: z.object({ reviewId: id, ...tenantScope, workspaceName: z.string(), startedBy: id, items: z.array(item) }),
  AccessReviewItemDecided: z.object({ reviewId: id, workspaceId: id, itemId, decision: z.enum(ACCESS_REVIEW_DECISIONS), note: z.string().nullable(), decidedBy: id }),
  AccessReviewCompleted: z.object({
    reviewId: id,
    workspaceId: id,
    completedBy: id,
    decisions: z.array(z.object({ itemId, decision: z.enum(ACCESS_REVIEW_DECISIONS) })),
    outcomes: z.array(outcome),
  }),
});
export type AccessReviewEvent = EventOf<typeof accessReviewEvents>;
export const accessReviewStream = (reviewId: number): string => `access-review-${reviewId}`;
