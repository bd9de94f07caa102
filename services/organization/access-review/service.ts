import { personalDataOf } from '#shared/pii/index.js';
import { accessReviewStream, type AccessReviewDecision, type AccessReviewItem, type AccessReviewOutcome } from '#events/organization/access-reviews.js';
import { getAccessReview, listAccessReviews, type AccessReviewItemView, type AccessReviewRecord, type AccessReviewSummary } from '#projections/org-access-reviews/index.js';
import { getWorkspace } from '#projections/org-directory/index.js';
import type { CommandContext } from '#shared/es/index.js';
import { AppError, found } from '#shared/errors.js';
import { allocateId } from '#shared/ids.js';
import type { Page } from '#shared/paging.js';
import type { Platform } from '../../platform.js';
import { permissionsOf } from '../roles/index.js';
import { orgAggregate } from '../service.js';
import { accessReviewDecider, undecidedError } from './decide.js';
import { reviewItems, stillHeld } from './items.js';
import { accessReviewAt, accessStateAt } from './reads.js';
import { revocations, type Revocation } from './revocations.js';

/** Who acts on a review: the signed-in caller, their company and the workspace they act in (their keys for people and teams are read there). */
export interface Reviewer {
  userId: number;
  companyId: number;
  workspaceId: number | null;
}

const ALREADY_GONE = 'Already gone when the review was completed (revoked or removed since it started): nothing to revoke';

/** The grant an item of the read model names, as the revocations take it. */
const grantOf = (item: AccessReviewItemView): AccessReviewItem => ({
  itemId: item.id,
  kind: item.kind,
  ...(item.user ? { userId: item.user.id } : {}),
  ...(item.team ? { teamId: item.team.id } : {}),
  ...(item.role ? { roleId: item.role.id } : {}),
});

const completedError = (reviewId: number) => new AppError('ACCESS_REVIEW_COMPLETED', `Access review ${reviewId} is completed: it takes no more decisions and is not completed again`);
const ownAdministrator = (reviewer: Reviewer, item: AccessReviewItemView) => item.kind === 'admin' && item.user?.id === reviewer.userId;
const notOwnAdministrator = () => new AppError('CONFLICT', 'You cannot revoke administrator from your own account; keep that grant, or let another administrator decide it');

/**
 * Access reviews of a workspace (events on `access-review-<id>`): started with the workspace's grants as
 * the history folds them now, a keep or revoke decision per grant while it is open, and a completion that
 * revokes what was marked revoke through the grants' ordinary commands, then records what came of each.
 */
export class AccessReviewService {
  private readonly reviews;
  private readonly revoke: ReturnType<typeof revocations>;

  constructor(private readonly platform: Platform) {
    this.reviews = orgAggregate(platform, accessReviewDecider, accessReviewStream, ['org-access-reviews']);
    this.revoke = revocations(platform);
  }

  list(companyId: number, filter: { workspaceId?: number | undefined; page: number; size: number }): Promise<Page<AccessReviewSummary>> {
    return listAccessReviews(this.platform.db, companyId, filter);
  }

  /** A review of the company; 404 for an unknown id or another company's. */
  async get(companyId: number, reviewId: number): Promise<AccessReviewRecord> {
    return found(await getAccessReview(this.platform.db, companyId, reviewId), 'Access review not found');
  }

  /** Starts a review of a workspace of the caller's company (404 otherwise): its grants as the history folds them at the command's time. */
  async start(reviewer: Reviewer, workspaceId: number, ctx: CommandContext): Promise<AccessReviewRecord> {
    const review = await accessReviewAt(this.platform.db, reviewer.companyId, workspaceId, ctx.now, undefined, personalDataOf(this.platform.store));
    const reviewId = await allocateId(this.platform.db, 'access_review');
    const command = {
      type: 'StartAccessReview',
      reviewId,
      companyId: reviewer.companyId,
      workspaceId,
      workspaceName: review.workspace.name,
      startedBy: reviewer.userId,
      items: reviewItems(review),
    } as const;
    await this.reviews.run(reviewId, command, { ...ctx, workspaceId }, { created: true });
    return this.get(reviewer.companyId, reviewId);
  }

  /** Records a decision on one grant of an open review (a later one replaces it); answers the grant. */
  async decide(reviewer: Reviewer, reviewId: number, itemId: string, decision: AccessReviewDecision, note: string | null, ctx: CommandContext): Promise<AccessReviewItemView> {
    const review = await this.get(reviewer.companyId, reviewId);
    if (review.status === 'completed') throw completedError(reviewId);
    const item = found(
      review.items.find((i) => i.id === itemId),
      `The review has no item ${itemId}`,
    );
    if (decision === 'revoke' && ownAdministrator(reviewer, item)) throw notOwnAdministrator();
    const command = { type: 'DecideAccessReviewItem', companyId: reviewer.companyId, itemId, decision, note, decidedBy: reviewer.userId } as const;
    await this.reviews.run(reviewId, command, { ...ctx, workspaceId: review.workspace.id });
    return found((await this.get(reviewer.companyId, reviewId)).items.find((i) => i.id === itemId), `The review has no item ${itemId}`);
  }

  /**
   * Completes an open review whose every grant is decided: each grant marked revoke and still held is
   * revoked by its ordinary command; one gone since the start counts as done ("already-gone"); a command
   * that refuses is recorded as "failed" with its code. Refused before anything changes: 409 while a grant
   * is undecided or once completed, 403 without the key a revocation's route asks, 409 for one's own
   * administrator and for grants of an archived workspace.
   */
  async complete(reviewer: Reviewer, reviewId: number, ctx: CommandContext): Promise<AccessReviewRecord> {
    const { companyId } = reviewer;
    const review = await this.get(companyId, reviewId);
    if (review.status === 'completed') throw completedError(reviewId);
    const undecided = review.items.filter((i) => i.decision === null).map((i) => i.id);
    if (undecided.length > 0) throw undecidedError(undecided);
    const where = { companyId, workspaceId: review.workspace.id };
    const now = await accessStateAt(this.platform.db, companyId, ctx.now, undefined, personalDataOf(this.platform.store));
    const revoke = review.items.filter((i) => i.decision === 'revoke');
    const held = revoke.filter((i) => stillHeld(now, where.workspaceId, grantOf(i)));
    await this.refuseWhatTheRoutesRefuse(reviewer, review, held);
    const outcomes: AccessReviewOutcome[] = [];
    for (const item of revoke) outcomes.push(held.includes(item) ? await this.carryOut(grantOf(item), where, ctx) : { itemId: item.id, result: 'already-gone', message: ALREADY_GONE });
    const decisions = review.items.map((i) => ({ itemId: i.id, decision: i.decision! }));
    await this.reviews.run(reviewId, { type: 'CompleteAccessReview', companyId, completedBy: reviewer.userId, decisions, outcomes }, { ...ctx, workspaceId: where.workspaceId });
    return this.get(companyId, reviewId);
  }

  /** What the grants' own routes would refuse this caller, refused before any grant is touched. */
  private async refuseWhatTheRoutesRefuse(reviewer: Reviewer, review: AccessReviewRecord, held: readonly AccessReviewItemView[]): Promise<void> {
    if (held.length === 0) return;
    const { db } = this.platform;
    const keys = {
      active: await permissionsOf(db, reviewer, reviewer.workspaceId === null ? null : { id: reviewer.workspaceId, companyId: reviewer.companyId }),
      workspace: await permissionsOf(db, reviewer, { id: review.workspace.id, companyId: reviewer.companyId }),
    };
    const missing = [...new Set(held.map((i) => this.revoke[i.kind]).filter((r: Revocation) => !keys[r.scope].has(r.key)).map((r) => r.key))];
    if (missing.length > 0) throw new AppError('FORBIDDEN', `Missing permission ${missing.join(', ')}: the revocations marked need it, as their own routes do`);
    if (held.some((i) => ownAdministrator(reviewer, i))) throw notOwnAdministrator();
    const ws = await getWorkspace(db, reviewer.companyId, review.workspace.id);
    if (ws?.archived && held.some((i) => this.revoke[i.kind].scope === 'workspace')) {
      throw new AppError('WORKSPACE_ARCHIVED', `Workspace ${ws.name} is archived and read-only: unarchive it to revoke its grants, or keep them`);
    }
  }

  /** Revokes one grant by its ordinary command: what came of it. */
  private async carryOut(grant: AccessReviewItem, where: { companyId: number; workspaceId: number }, ctx: CommandContext): Promise<AccessReviewOutcome> {
    try {
      await this.revoke[grant.kind].revoke(grant, where, ctx);
      return { itemId: grant.itemId, result: 'revoked' };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // Gone between the look and the command: done all the same.
      if (err.code === 'NOT_FOUND') return { itemId: grant.itemId, result: 'already-gone', message: `${ALREADY_GONE} (${err.message})` };
      return { itemId: grant.itemId, result: 'failed', code: err.code, message: err.message };
    }
  }
}
