import { describe, expect, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { accessReviewDecider } from './decide.js';

const spec = deciderSpec(accessReviewDecider);

const started = {
  type: 'AccessReviewStarted' as const,
  payload: {
    reviewId: 9,
    companyId: 1,
    workspaceId: 4,
    workspaceName: 'Payments',
    startedBy: 2,
    items: [
      { itemId: 'workspace-user-7', kind: 'workspace-user' as const, userId: 7, userName: 'Alice', userEmail: 'alice@x.test' },
      { itemId: 'team-member-3-8', kind: 'team-member' as const, teamId: 3, teamName: 'QA', userId: 8, userName: 'Bob', userEmail: 'bob@x.test' },
    ],
  },
};
const decided = (itemId: string, decision: 'keep' | 'revoke', note: string | null = null, decidedBy = 2) => ({
  type: 'AccessReviewItemDecided' as const,
  payload: { reviewId: 9, workspaceId: 4, itemId, decision, note, decidedBy },
});
const decide = (itemId: string, decision: 'keep' | 'revoke', note: string | null = null, companyId = 1) => ({ type: 'DecideAccessReviewItem' as const, companyId, itemId, decision, note, decidedBy: 2 });
const complete = (decisions: { itemId: string; decision: 'keep' | 'revoke' }[], outcomes: { itemId: string; result: 'revoked' | 'already-gone' | 'failed' }[], companyId = 1) => ({
  type: 'CompleteAccessReview' as const,
  companyId,
  completedBy: 5,
  decisions,
  outcomes,
});
const bothDecided = [started, decided('workspace-user-7', 'keep'), decided('team-member-3-8', 'revoke', 'left QA')];
const carried = [
  { itemId: 'workspace-user-7', decision: 'keep' as const },
  { itemId: 'team-member-3-8', decision: 'revoke' as const },
];

describe('access review decider', () => {
  it('starts once with its grants; a second start of the id is refused', () => {
    spec.given([]).when({ type: 'StartAccessReview', ...started.payload }).then([started]);
    spec.given([started]).when({ type: 'StartAccessReview', ...started.payload }).thenRefused('ALREADY_EXISTS');
  });

  it('records a decision per grant, a changed one again, the same one not twice', () => {
    spec.given([started]).when(decide('workspace-user-7', 'revoke', 'no longer on the project')).then([decided('workspace-user-7', 'revoke', 'no longer on the project')]);
    spec.given([started, decided('workspace-user-7', 'revoke')]).when(decide('workspace-user-7', 'keep')).then([decided('workspace-user-7', 'keep')]);
    spec.given([started, decided('workspace-user-7', 'keep')]).when(decide('workspace-user-7', 'keep')).then([]);
    spec.given([started, decided('workspace-user-7', 'keep')]).when(decide('workspace-user-7', 'keep', 'checked')).then([decided('workspace-user-7', 'keep', 'checked')]);
  });

  it("answers 404 for an unknown review, another company's, and an item the review does not have", () => {
    spec.given([]).when(decide('workspace-user-7', 'keep')).thenRefused('NOT_FOUND');
    spec.given([started]).when(decide('workspace-user-7', 'keep', null, 2)).thenRefused('NOT_FOUND');
    spec.given([started]).when(decide('workspace-user-99', 'keep')).thenRefused('NOT_FOUND');
    spec.given(bothDecided).when(complete(carried, [{ itemId: 'team-member-3-8', result: 'revoked' }], 2)).thenRefused('NOT_FOUND');
  });

  it('refuses to complete while a grant is undecided, naming it', () => {
    spec.given([started, decided('workspace-user-7', 'keep')]).when(complete([carried[0]!], [])).thenRefused('ACCESS_REVIEW_UNDECIDED');
    try {
      accessReviewDecider.decide(complete([], []), [started].reduce(accessReviewDecider.evolve, accessReviewDecider.initialState()));
      expect.unreachable();
    } catch (err) {
      expect((err as { details: { itemId: string }[] }).details.map((d) => d.itemId)).toEqual(['workspace-user-7', 'team-member-3-8']);
    }
  });

  it('completes with the decisions and the outcome of each revocation, once; no decision after', () => {
    const outcomes = [{ itemId: 'team-member-3-8', result: 'already-gone' as const, message: 'gone since the start' }];
    const completed = { type: 'AccessReviewCompleted' as const, payload: { reviewId: 9, workspaceId: 4, completedBy: 5, decisions: carried, outcomes } };
    spec.given(bothDecided).when(complete(carried, outcomes)).then([completed]);
    spec.given([...bothDecided, completed]).when(complete(carried, outcomes)).thenRefused('ACCESS_REVIEW_COMPLETED');
    spec.given([...bothDecided, completed]).when(decide('workspace-user-7', 'revoke')).thenRefused('ACCESS_REVIEW_COMPLETED');
  });

  it('refuses a completion carried out for decisions that changed meanwhile', () => {
    const changed = [...bothDecided, decided('workspace-user-7', 'revoke')];
    spec.given(changed).when(complete(carried, [{ itemId: 'team-member-3-8', result: 'revoked' }])).thenRefused('ACCESS_REVIEW_CHANGED');
  });
});
