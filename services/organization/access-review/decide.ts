import type { AccessReviewDecision, AccessReviewEvent, AccessReviewItem, AccessReviewOutcome } from '#events/organization/access-reviews.js';
import { AppError } from '#shared/errors.js';
import { defineDecider, firstEvent } from '#shared/es/index.js';

type Started = Extract<AccessReviewEvent, { type: 'AccessReviewStarted' }>['payload'];

/** Commands on an access review. All but the start carry the caller's `companyId`: another company's review is "not found" here too. */
export type AccessReviewCommand =
  | ({ type: 'StartAccessReview' } & Started)
  | { type: 'DecideAccessReviewItem'; companyId: number; itemId: string; decision: AccessReviewDecision; note: string | null; decidedBy: number }
  | {
      type: 'CompleteAccessReview';
      companyId: number;
      completedBy: number;
      /** The decisions the revocations were carried out for: each item's, as the caller read them. */
      decisions: { itemId: string; decision: AccessReviewDecision }[];
      /** What came of each revocation. */
      outcomes: AccessReviewOutcome[];
    };

export interface ReviewItemState {
  kind: AccessReviewItem['kind'];
  decision: AccessReviewDecision | null;
  note: string | null;
}

export interface LiveAccessReview {
  status: 'open' | 'completed';
  reviewId: number;
  companyId: number;
  workspaceId: number;
  /** The review's grants by item id, in the order they were listed. */
  items: Record<string, ReviewItemState>;
}

export type AccessReviewState = { status: 'none' } | LiveAccessReview;

/** The review, when it is of `companyId`; 404 otherwise (not started, another company's). */
function reviewOf(state: AccessReviewState, companyId: number): LiveAccessReview {
  if (state.status === 'none' || state.companyId !== companyId) throw new AppError('NOT_FOUND', 'Access review not found');
  return state;
}

/** The review while it takes decisions: 409 `ACCESS_REVIEW_COMPLETED` once completed. */
function open(state: AccessReviewState, companyId: number): LiveAccessReview {
  const review = reviewOf(state, companyId);
  if (review.status === 'completed') throw new AppError('ACCESS_REVIEW_COMPLETED', `Access review ${review.reviewId} is completed; start a new one`);
  return review;
}

/** The items without a decision, in the review's order. */
export const undecidedItems = (review: LiveAccessReview): string[] => Object.entries(review.items).flatMap(([id, item]) => (item.decision === null ? [id] : []));

/** 409 `ACCESS_REVIEW_UNDECIDED` naming each grant still without a decision. */
export function undecidedError(itemIds: readonly string[]): AppError {
  return new AppError('ACCESS_REVIEW_UNDECIDED', `${itemIds.length} of the review's grants have no decision yet; mark each keep or revoke first`, {
    details: itemIds.map((itemId) => ({ path: `items.${itemId}`, message: 'no decision', itemId })),
  });
}

/**
 * An access review of one workspace: its grants listed at the start, a keep or revoke decision for each
 * (changed as often as the reviewer likes while it is open), completed once every grant is decided, with
 * the outcome of each revocation. Completed, it takes nothing more.
 */
export const accessReviewDecider = defineDecider<AccessReviewCommand, AccessReviewEvent, AccessReviewState>({
  initialState: () => ({ status: 'none' }),
  evolve: {
    AccessReviewStarted: (_state, { payload: p }) => ({
      status: 'open',
      reviewId: p.reviewId,
      companyId: p.companyId,
      workspaceId: p.workspaceId,
      items: Object.fromEntries(p.items.map((i) => [i.itemId, { kind: i.kind, decision: null, note: null }])),
    }),
    AccessReviewItemDecided: (state, { payload: p }) => {
      if (state.status !== 'open' || !state.items[p.itemId]) return state;
      return { ...state, items: { ...state.items, [p.itemId]: { ...state.items[p.itemId]!, decision: p.decision, note: p.note } } };
    },
    AccessReviewCompleted: (state) => (state.status === 'none' ? state : { ...state, status: 'completed' }),
  },
  decide: {
    StartAccessReview: (command, state) => [firstEvent(state.status !== 'none', 'Access review', 'AccessReviewStarted', command)],
    DecideAccessReviewItem: ({ companyId, itemId, decision, note, decidedBy }, state) => {
      const review = open(state, companyId);
      const item = review.items[itemId];
      if (!item) throw new AppError('NOT_FOUND', `The review has no item ${itemId}`);
      if (item.decision === decision && item.note === note) return [];
      return [{ type: 'AccessReviewItemDecided', payload: { reviewId: review.reviewId, workspaceId: review.workspaceId, itemId, decision, note, decidedBy } }];
    },
    CompleteAccessReview: ({ companyId, completedBy, decisions, outcomes }, state) => {
      const review = open(state, companyId);
      const undecided = undecidedItems(review);
      if (undecided.length > 0) throw undecidedError(undecided);
      const current = Object.entries(review.items);
      const carried = new Map(decisions.map((d) => [d.itemId, d.decision]));
      if (carried.size !== current.length || current.some(([id, item]) => carried.get(id) !== item.decision)) {
        throw new AppError('ACCESS_REVIEW_CHANGED', 'A decision changed while the review was being completed; what was revoked stays revoked — complete it again');
      }
      const revoked = new Set(current.flatMap(([id, item]) => (item.decision === 'revoke' ? [id] : [])));
      if (outcomes.length !== revoked.size || outcomes.some((o) => !revoked.has(o.itemId))) throw new Error('an access review completes with one outcome for each revocation');
      return [
        {
          type: 'AccessReviewCompleted',
          payload: { reviewId: review.reviewId, workspaceId: review.workspaceId, completedBy, decisions: current.map(([itemId, item]) => ({ itemId, decision: item.decision! })), outcomes },
        },
      ];
    },
  },
});
