import { accessReviewEvents, type AccessReviewEvent } from '#events/organization/access-reviews.js';
import { applyByType, type Projection } from '../types.js';

/**
 * Each company's access reviews: the workspace, who started and completed each and when, and every
 * grant it listed with the decision on it (who, when, the note) and, once completed, what came of its
 * revocation. The grants themselves are the directory's; this is the review's record of them.
 */
export const orgAccessReviewsProjection: Projection = {
  name: 'org-access-reviews',
  version: 1,
  eventTypes: accessReviewEvents.types,
  schema: `
    CREATE TABLE IF NOT EXISTS org_access_reviews (
      id integer PRIMARY KEY,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      workspace_name text NOT NULL,
      started_by integer NOT NULL,
      started_at timestamptz NOT NULL,
      completed_by integer,
      completed_at timestamptz
    );
    CREATE INDEX IF NOT EXISTS org_access_reviews_company ON org_access_reviews (company_id, id DESC);
    CREATE TABLE IF NOT EXISTS org_access_review_items (
      review_id integer NOT NULL,
      item_id text NOT NULL,
      ordinal integer NOT NULL,
      kind text NOT NULL,
      user_id integer,
      user_name text,
      user_email text,
      team_id integer,
      team_name text,
      role_id integer,
      role_name text,
      permissions text[],
      decision text,
      note text,
      decided_by integer,
      decided_at timestamptz,
      result text,
      result_code text,
      result_message text,
      PRIMARY KEY (review_id, item_id)
    );`,
  tables: ['org_access_reviews', 'org_access_review_items'],
  apply: applyByType<AccessReviewEvent>(
    {
      AccessReviewStarted: async (tx, { payload: p }, at) => {
        const inserted = await tx.query(
          `INSERT INTO org_access_reviews (id, company_id, workspace_id, workspace_name, started_by, started_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
          [p.reviewId, p.companyId, p.workspaceId, p.workspaceName, p.startedBy, at],
        );
        if (inserted.rowCount === 0) return;
        // One statement for all the grants, whatever their number.
        await tx.query(
          `INSERT INTO org_access_review_items (review_id, item_id, ordinal, kind, user_id, user_name, user_email, team_id, team_name, role_id, role_name, permissions)
           SELECT $1, i."itemId", i.ordinal::integer, i.kind, i."userId", i."userName", i."userEmail", i."teamId", i."teamName", i."roleId", i."roleName",
                  CASE WHEN i.permissions IS NULL THEN NULL ELSE ARRAY(SELECT jsonb_array_elements_text(i.permissions)) END
             FROM jsonb_to_recordset($2::jsonb) AS i("itemId" text, ordinal integer, kind text, "userId" integer, "userName" text, "userEmail" text,
                  "teamId" integer, "teamName" text, "roleId" integer, "roleName" text, permissions jsonb)
           ON CONFLICT (review_id, item_id) DO NOTHING`,
          [p.reviewId, JSON.stringify(p.items.map((item, ordinal) => ({ ...item, ordinal })))],
        );
      },
      AccessReviewItemDecided: async (tx, { payload: p }, at) => {
        await tx.query(`UPDATE org_access_review_items SET decision = $3, note = $4, decided_by = $5, decided_at = $6 WHERE review_id = $1 AND item_id = $2`, [
          p.reviewId,
          p.itemId,
          p.decision,
          p.note,
          p.decidedBy,
          at,
        ]);
      },
      AccessReviewCompleted: async (tx, { payload: p }, at) => {
        await tx.query(`UPDATE org_access_reviews SET completed_by = $2, completed_at = coalesce(completed_at, $3) WHERE id = $1`, [p.reviewId, p.completedBy, at]);
        await tx.query(
          `UPDATE org_access_review_items r SET result = o.result, result_code = o.code, result_message = o.message
             FROM jsonb_to_recordset($2::jsonb) AS o("itemId" text, result text, code text, message text)
            WHERE r.review_id = $1 AND r.item_id = o."itemId"`,
          [p.reviewId, JSON.stringify(p.outcomes)],
        );
      },
    },
    accessReviewEvents,
  ),
};
