import type { AccessReviewDecision, AccessReviewItemKind, AccessReviewResult } from '#events/organization/access-reviews.js';
import type { Sql } from '#shared/db/index.js';
import { iso, isoOrNull, numOrNull, textOrNull, type Row } from '#shared/db/index.js';
import type { Page } from '#shared/paging.js';
import { namesOfUsers } from '../org-directory/index.js';
import { Conditions, readPage } from '../queries.js';

/** Someone who started, decided or completed a review: their name and e-mail as the directory has them. */
export interface ReviewPerson {
  id: number;
  name: string | null;
  email: string | null;
}

export interface AccessReviewSummary {
  id: number;
  workspace: { id: number; name: string };
  status: 'open' | 'completed';
  startedAt: string;
  startedBy: ReviewPerson;
  completedAt: string | null;
  completedBy: ReviewPerson | null;
  counts: { items: number; undecided: number; keep: number; revoke: number };
}

/** One grant of a review as it stood at the start, the decision on it, and what came of its revocation. */
export interface AccessReviewItemView {
  id: string;
  kind: AccessReviewItemKind;
  user: { id: number; name: string; email: string } | null;
  team: { id: number; name: string } | null;
  role: { id: number; name: string; permissions: string[] } | null;
  decision: AccessReviewDecision | null;
  note: string | null;
  decidedAt: string | null;
  decidedBy: ReviewPerson | null;
  outcome: { result: AccessReviewResult; code: string | null; message: string | null } | null;
}

export interface AccessReviewRecord extends AccessReviewSummary {
  items: AccessReviewItemView[];
}

const COUNTS = `LEFT JOIN LATERAL (
    SELECT count(*) AS items, count(*) FILTER (WHERE decision IS NULL) AS undecided,
           count(*) FILTER (WHERE decision = 'keep') AS keep, count(*) FILTER (WHERE decision = 'revoke') AS revoke
      FROM org_access_review_items i WHERE i.review_id = r.id) c ON true`;

type Names = Map<number, { companyId: number; name: string; email: string }>;

/** The person of `id` by the directory, named only within the review's company. */
const personOf = (names: Names, companyId: number, id: unknown): ReviewPerson | null => {
  const n = numOrNull(id);
  if (n === null) return null;
  const known = names.get(n);
  return known && known.companyId === companyId ? { id: n, name: known.name, email: known.email } : { id: n, name: null, email: null };
};

const summaryOf = (names: Names) => (r: Row): AccessReviewSummary => {
  const companyId = Number(r.company_id);
  return {
    id: Number(r.id),
    workspace: { id: Number(r.workspace_id), name: String(r.workspace_name) },
    status: r.completed_at === null || r.completed_at === undefined ? 'open' : 'completed',
    startedAt: iso(r.started_at),
    startedBy: personOf(names, companyId, r.started_by)!,
    completedAt: isoOrNull(r.completed_at),
    completedBy: personOf(names, companyId, r.completed_by),
    counts: { items: Number(r.items ?? 0), undecided: Number(r.undecided ?? 0), keep: Number(r.keep ?? 0), revoke: Number(r.revoke ?? 0) },
  };
};

const itemOf = (names: Names, companyId: number) => (r: Row): AccessReviewItemView => ({
  id: String(r.item_id),
  kind: String(r.kind) as AccessReviewItemKind,
  user: r.user_id === null ? null : { id: Number(r.user_id), name: String(r.user_name ?? ''), email: String(r.user_email ?? '') },
  team: r.team_id === null ? null : { id: Number(r.team_id), name: String(r.team_name ?? '') },
  role: r.role_id === null ? null : { id: Number(r.role_id), name: String(r.role_name ?? ''), permissions: (r.permissions as string[] | null) ?? [] },
  decision: textOrNull(r.decision) as AccessReviewDecision | null,
  note: textOrNull(r.note),
  decidedAt: isoOrNull(r.decided_at),
  decidedBy: personOf(names, companyId, r.decided_by),
  outcome: r.result === null ? null : { result: String(r.result) as AccessReviewResult, code: textOrNull(r.result_code), message: textOrNull(r.result_message) },
});

const peopleIn = (rows: readonly Row[], columns: readonly string[]): number[] => rows.flatMap((r) => columns.flatMap((c) => (r[c] === null || r[c] === undefined ? [] : [Number(r[c])])));

/** The company's reviews, newest first, optionally of one workspace. */
export async function listAccessReviews(db: Sql, companyId: number, filter: { workspaceId?: number | undefined; page: number; size: number }): Promise<Page<AccessReviewSummary>> {
  const where = Conditions.of(['r.company_id = $1'], [companyId]);
  if (filter.workspaceId !== undefined) where.add((n) => `r.workspace_id = ${n}`, filter.workspaceId);
  const page = await readPage(db, { from: `org_access_reviews r ${COUNTS}`, where, orderBy: 'r.id DESC' }, filter, (row) => row);
  const names = await namesOfUsers(db, peopleIn(page.content, ['started_by', 'completed_by']));
  return { ...page, content: page.content.map(summaryOf(names)) };
}

/** One review of the company with its grants in their order; null for an unknown id or another company's. */
export async function getAccessReview(db: Sql, companyId: number, reviewId: number): Promise<AccessReviewRecord | null> {
  const r = await db.query<Row>(`SELECT * FROM org_access_reviews r ${COUNTS} WHERE r.company_id = $1 AND r.id = $2`, [companyId, reviewId]);
  const row = r.rows[0];
  if (!row) return null;
  const items = (await db.query<Row>(`SELECT * FROM org_access_review_items WHERE review_id = $1 ORDER BY ordinal`, [reviewId])).rows;
  const names = await namesOfUsers(db, [...peopleIn([row], ['started_by', 'completed_by']), ...peopleIn(items, ['decided_by'])]);
  return { ...summaryOf(names)(row), items: items.map(itemOf(names, companyId)) };
}
