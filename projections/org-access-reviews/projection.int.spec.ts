import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { orgDirectoryProjection } from '../org-directory/projection.js';
import { projectionSpec, type ProjectionSpec } from '../testing.js';
import { orgAccessReviewsProjection } from './projection.js';
import { getAccessReview, listAccessReviews } from './queries.js';

let spec: ProjectionSpec;
beforeAll(async () => {
  spec = await projectionSpec(orgAccessReviewsProjection);
  // Who started, decided and completed is named from the directory.
  await spec.db.exec(orgDirectoryProjection.schema);
  await spec.db.query(
    `INSERT INTO org_users (id, company_id, email, username, name, status, is_admin, role_ids, created_at)
     VALUES (2, 1, 'ada@x.test', 'ada', 'Ada Admin', 'active', true, '{}', now()), (5, 1, 'rex@x.test', 'rex', 'Rex Reviewer', 'active', true, '{}', now()),
            (9, 2, 'eve@y.test', 'eve', 'Eve Elsewhere', 'active', true, '{}', now())`,
  );
});
afterAll(() => spec.close());
beforeEach(() => spec.reset());

const at = (minute: number) => ({ occurredAt: `2026-03-01T10:${String(minute).padStart(2, '0')}:00.000Z` });
const started = (reviewId: number, companyId = 1, workspaceId = 4, startedBy = 2) => ({
  type: 'AccessReviewStarted',
  streamId: `access-review-${reviewId}`,
  metadata: at(0),
  payload: {
    reviewId,
    companyId,
    workspaceId,
    workspaceName: 'Payments',
    startedBy,
    items: [
      { itemId: 'workspace-user-7', kind: 'workspace-user', userId: 7, userName: 'Alice', userEmail: 'alice@x.test' },
      { itemId: 'company-role-7-12', kind: 'company-role', userId: 7, userName: 'Alice', userEmail: 'alice@x.test', roleId: 12, roleName: 'Tester', permissions: ['TMT_READ', 'TMT_WRITE'] },
      { itemId: 'workspace-team-3', kind: 'workspace-team', teamId: 3, teamName: 'QA' },
    ],
  },
});
const decided = (itemId: string, decision: 'keep' | 'revoke', minute: number, note: string | null = null, decidedBy = 2) => ({
  type: 'AccessReviewItemDecided',
  streamId: 'access-review-1',
  metadata: at(minute),
  payload: { reviewId: 1, workspaceId: 4, itemId, decision, note, decidedBy },
});

describe('org-access-reviews read model', () => {
  it('given a start, lists the review with its grants in order, all undecided, named by the directory', async () => {
    await spec.given(started(1));
    const review = await getAccessReview(spec.db, 1, 1);
    expect(review).toMatchObject({
      id: 1,
      workspace: { id: 4, name: 'Payments' },
      status: 'open',
      startedAt: '2026-03-01T10:00:00.000Z',
      startedBy: { id: 2, name: 'Ada Admin', email: 'ada@x.test' },
      completedAt: null,
      completedBy: null,
      counts: { items: 3, undecided: 3, keep: 0, revoke: 0 },
    });
    expect(review!.items.map((i) => i.id)).toEqual(['workspace-user-7', 'company-role-7-12', 'workspace-team-3']);
    expect(review!.items[1]).toEqual({
      id: 'company-role-7-12',
      kind: 'company-role',
      user: { id: 7, name: 'Alice', email: 'alice@x.test' },
      team: null,
      role: { id: 12, name: 'Tester', permissions: ['TMT_READ', 'TMT_WRITE'] },
      decision: null,
      note: null,
      decidedAt: null,
      decidedBy: null,
      outcome: null,
    });
  });

  it('given decisions (one changed) and the completion, each grant has its last decision, who and when, and its outcome', async () => {
    await spec.given(
      started(1),
      decided('workspace-user-7', 'keep', 1),
      decided('company-role-7-12', 'revoke', 2, 'left the project'),
      decided('workspace-team-3', 'revoke', 3),
      decided('workspace-team-3', 'keep', 4, null, 5),
      {
        type: 'AccessReviewCompleted',
        streamId: 'access-review-1',
        metadata: at(5),
        payload: {
          reviewId: 1,
          workspaceId: 4,
          completedBy: 5,
          decisions: [
            { itemId: 'workspace-user-7', decision: 'keep' },
            { itemId: 'company-role-7-12', decision: 'revoke' },
            { itemId: 'workspace-team-3', decision: 'keep' },
          ],
          outcomes: [{ itemId: 'company-role-7-12', result: 'already-gone', message: 'Already gone' }],
        },
      },
    );
    const review = (await getAccessReview(spec.db, 1, 1))!;
    expect(review).toMatchObject({ status: 'completed', completedAt: '2026-03-01T10:05:00.000Z', completedBy: { id: 5, name: 'Rex Reviewer' }, counts: { items: 3, undecided: 0, keep: 2, revoke: 1 } });
    expect(review.items.map((i) => [i.id, i.decision, i.note, i.decidedAt, i.decidedBy?.id, i.outcome])).toEqual([
      ['workspace-user-7', 'keep', null, '2026-03-01T10:01:00.000Z', 2, null],
      ['company-role-7-12', 'revoke', 'left the project', '2026-03-01T10:02:00.000Z', 2, { result: 'already-gone', code: null, message: 'Already gone' }],
      ['workspace-team-3', 'keep', null, '2026-03-01T10:04:00.000Z', 5, null],
    ]);
  });

  it("lists only the company's reviews, newest first, by workspace when asked; another company's id is not found", async () => {
    await spec.given(started(1), started(2, 1, 6), started(3, 2, 8, 9));
    const all = await listAccessReviews(spec.db, 1, { page: 0, size: 20 });
    expect(all.content.map((r) => r.id)).toEqual([2, 1]);
    expect(all.totalElements).toBe(2);
    expect((await listAccessReviews(spec.db, 1, { workspaceId: 6, page: 0, size: 20 })).content.map((r) => r.id)).toEqual([2]);
    expect(await getAccessReview(spec.db, 1, 3)).toBeNull();
    expect((await getAccessReview(spec.db, 2, 3))?.startedBy).toEqual({ id: 9, name: 'Eve Elsewhere', email: 'eve@y.test' });
  });

  it('keeps one row per grant when the events are applied again', async () => {
    const events = await spec.given(started(1), decided('workspace-user-7', 'revoke', 1));
    await spec.replay(events);
    const review = (await getAccessReview(spec.db, 1, 1))!;
    expect(review.items).toHaveLength(3);
    expect(review.items[0]?.decision).toBe('revoke');
  });
});
