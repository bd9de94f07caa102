// A review as evidence: who started and completed it and when, the workspace, and every grant with its
// decision (who, when, the note) and what came of its revocation; as JSON, or one CSV row per grant.
import type { AccessReviewItemView, AccessReviewRecord, ReviewPerson } from '#projections/org-access-reviews/index.js';
import { csvCell } from '#shared/http/csv.js';

export type AccessReviewEvidence = AccessReviewRecord & { exportedAt: string; items: (AccessReviewItemView & { grant: string })[] };

const person = (u: { name: string; email: string } | null) => (u ? `${u.name || u.email} <${u.email}>` : 'someone');

/** The grant in words, as it stood when the review started. */
export function grantWords(item: AccessReviewItemView, workspaceName: string): string {
  const who = person(item.user);
  switch (item.kind) {
    case 'workspace-user':
      return `${who} may enter ${workspaceName} (granted to them)`;
    case 'workspace-team':
      return `Team ${item.team?.name ?? ''} may enter ${workspaceName}`;
    case 'team-member':
      return `${who} is a member of team ${item.team?.name ?? ''}`;
    case 'workspace-role':
      return `${who} holds the role ${item.role?.name ?? ''} in ${workspaceName}`;
    case 'company-role':
      return `${who} holds the company role ${item.role?.name ?? ''}`;
    case 'admin':
      return `${who} is a company administrator`;
  }
}

/** The review with the moment of the export and each grant in words. */
export function evidenceOf(review: AccessReviewRecord, exportedAt: Date): AccessReviewEvidence {
  return { ...review, exportedAt: exportedAt.toISOString(), items: review.items.map((i) => ({ ...i, grant: grantWords(i, review.workspace.name) })) };
}

/** The CSV's columns: the review, then the grant, its decision and the revocation's outcome. */
export const EVIDENCE_COLUMNS = [
  'reviewId',
  'workspaceId',
  'workspaceName',
  'status',
  'startedAt',
  'startedById',
  'startedByName',
  'startedByEmail',
  'completedAt',
  'completedById',
  'completedByName',
  'completedByEmail',
  'itemId',
  'kind',
  'grant',
  'userId',
  'userName',
  'userEmail',
  'teamId',
  'teamName',
  'roleId',
  'roleName',
  'permissions',
  'decision',
  'note',
  'decidedAt',
  'decidedById',
  'decidedByName',
  'decidedByEmail',
  'result',
  'resultCode',
  'resultMessage',
] as const;

type Row = Partial<Record<(typeof EVIDENCE_COLUMNS)[number], string | number | null>>;

const by = (prefix: 'startedBy' | 'completedBy' | 'decidedBy', p: ReviewPerson | null): Row => (p ? { [`${prefix}Id`]: p.id, [`${prefix}Name`]: p.name, [`${prefix}Email`]: p.email } : {});

/** The evidence as CSV: a header, then one row per grant, the review's facts repeated on each. */
export function evidenceCsv(evidence: AccessReviewEvidence): string {
  const review: Row = {
    reviewId: evidence.id,
    workspaceId: evidence.workspace.id,
    workspaceName: evidence.workspace.name,
    status: evidence.status,
    startedAt: evidence.startedAt,
    ...by('startedBy', evidence.startedBy),
    completedAt: evidence.completedAt,
    ...by('completedBy', evidence.completedBy),
  };
  const lines = [EVIDENCE_COLUMNS.join(',')];
  for (const i of evidence.items) {
    const row: Row = {
      ...review,
      itemId: i.id,
      kind: i.kind,
      grant: i.grant,
      ...(i.user ? { userId: i.user.id, userName: i.user.name, userEmail: i.user.email } : {}),
      ...(i.team ? { teamId: i.team.id, teamName: i.team.name } : {}),
      ...(i.role ? { roleId: i.role.id, roleName: i.role.name, permissions: i.role.permissions.join(' ') } : {}),
      decision: i.decision,
      note: i.note,
      decidedAt: i.decidedAt,
      ...by('decidedBy', i.decidedBy),
      ...(i.outcome ? { result: i.outcome.result, resultCode: i.outcome.code, resultMessage: i.outcome.message } : {}),
    };
    lines.push(EVIDENCE_COLUMNS.map((c) => csvCell(row[c])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
