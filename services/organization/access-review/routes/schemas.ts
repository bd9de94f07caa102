import { z } from 'zod';
import { ACCESS_REVIEW_DECISIONS, ACCESS_REVIEW_ITEM_KINDS, ACCESS_REVIEW_RESULTS } from '#events/organization/access-reviews.js';
import { idParam } from '#shared/http/params.js';
import { intId } from '../../http.js';

// The shapes of the review workflow's routes: a review, its grants with their decisions, the evidence.

export const tags = ['Audit'];

const id = z.number().int();

const Person = z
  .object({ id, name: z.string().nullable(), email: z.string().nullable() })
  .describe('Who acted, named as the directory has them now (null for someone no longer of the company)')
  .meta({ id: 'AccessReviewPerson' });

export const AccessReviewSummary = z
  .object({
    id,
    workspace: z.object({ id, name: z.string().describe('As it was called when the review started') }),
    status: z.enum(['open', 'completed']),
    startedAt: z.string(),
    startedBy: Person,
    completedAt: z.string().nullable(),
    completedBy: Person.nullable(),
    counts: z.object({ items: z.number().int(), undecided: z.number().int(), keep: z.number().int(), revoke: z.number().int() }),
  })
  .meta({ id: 'AccessReviewSummary' });

export const AccessReviewItem = z
  .object({
    id: z.string().describe('Stable: made of what the grant is (`workspace-user-7`, `team-member-3-7`, `company-role-7-12`, ...)'),
    kind: z.enum(ACCESS_REVIEW_ITEM_KINDS).describe(
      "`workspace-user`/`workspace-team`: an access grant to the workspace; `team-member`: a membership of a team granted it; `workspace-role`: a member role here; `company-role`: a company role of someone who can enter; `admin`: company administrator",
    ),
    user: z.object({ id, name: z.string(), email: z.string() }).nullable(),
    team: z.object({ id, name: z.string() }).nullable(),
    role: z.object({ id, name: z.string(), permissions: z.array(z.string()).describe('The keys it gave when the review started') }).nullable(),
    decision: z.enum(ACCESS_REVIEW_DECISIONS).nullable().describe('Null until decided'),
    note: z.string().nullable(),
    decidedAt: z.string().nullable(),
    decidedBy: Person.nullable(),
    outcome: z
      .object({ result: z.enum(ACCESS_REVIEW_RESULTS), code: z.string().nullable(), message: z.string().nullable() })
      .nullable()
      .describe('Once completed, for a grant marked revoke: `revoked`, `already-gone` (revoked or removed since the start: done), or `failed` with the error code its command answered'),
  })
  .meta({ id: 'AccessReviewItem' });

export const AccessReviewDetail = AccessReviewSummary.extend({ items: z.array(AccessReviewItem).describe('The grants as they stood at the start, in order') }).meta({ id: 'AccessReviewDetail' });

export const AccessReviewEvidence = AccessReviewDetail.extend({
  exportedAt: z.string(),
  items: z.array(AccessReviewItem.extend({ grant: z.string().describe('The grant in words') })),
}).meta({ id: 'AccessReviewEvidence' });

export const ReviewParams = z.object({ id: intId });
export const ItemParams = ReviewParams.extend({
  itemId: idParam.max(80).regex(/^[a-z-]+(-\d+){1,2}$/, 'an item id such as workspace-user-7'),
});
