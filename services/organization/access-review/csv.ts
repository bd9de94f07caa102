import { csvCell } from '#shared/http/csv.js';
import type { AccessPath, AccessReview, ReviewedPerson } from './review.js';

/** The CSV's columns: the moment and workspace, the person, then one grant a row. */
export const CSV_COLUMNS = ['at', 'workspaceId', 'userId', 'name', 'email', 'status', 'grant', 'grantId', 'grantName', 'via', 'permissions'] as const;

type Row = Partial<Record<(typeof CSV_COLUMNS)[number], string | number>>;


const accessRow = (a: AccessPath): Row =>
  a.via === 'admin' ? { grant: 'admin' } : a.via === 'user' ? { grant: 'workspace-access', via: 'user' } : { grant: 'workspace-access', via: 'team', grantId: a.teamId, grantName: a.teamName };

/** A person's grants, one row each: ways in, team memberships, roles (with the keys they gave). */
function grantRows(p: ReviewedPerson, only?: (row: Row) => boolean): Row[] {
  const rows: Row[] = [
    ...p.access.map(accessRow),
    ...p.teams.map((t): Row => ({ grant: 'team-member', grantId: t.id, grantName: t.name })),
    ...p.roles.map((r): Row => ({ grant: `${r.scope}-role`, grantId: r.id, grantName: r.name, permissions: r.permissions.join(' ') })),
  ];
  return only ? rows.filter(only) : rows;
}

/**
 * The review as CSV: a header, then one row per person and grant. With a permission key, only the
 * people who could use it, and of their grants their ways in and what gave them the key.
 */
export function reviewCsv(review: AccessReview & { at: string }): string {
  const lines: string[] = [CSV_COLUMNS.join(',')];
  const key = review.permissionKey;
  const holders = key ? new Set(key.holders.map((h) => h.userId)) : null;
  const only = key ? (row: Row) => row.grant === 'admin' || row.grant === 'workspace-access' || (typeof row.permissions === 'string' && row.permissions.split(' ').includes(key.key)) : undefined;
  for (const p of review.people) {
    if (holders && !holders.has(p.id)) continue;
    const person: Row = { at: review.at, workspaceId: review.workspace.id, userId: p.id, name: p.name, email: p.email, status: p.status };
    for (const g of grantRows(p, only)) {
      const row: Row = { ...person, ...g };
      lines.push(CSV_COLUMNS.map((c) => csvCell(row[c])).join(','));
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}
