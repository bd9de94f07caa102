// The grants a review of a workspace lists, from the review as the fold answers it (review.ts), each
// with an id made of what it grants, so the same grant has the same id in every review; and whether a
// grant is still held in a later state of the fold. Pure.
import type { AccessReviewItem } from '#events/organization/access-reviews.js';
import type { AccessState } from './fold.js';
import type { AccessReview } from './review.js';

/**
 * Every grant that lets someone into the workspace or gives them keys there: the workspace's access
 * grants to users and teams, the memberships of the teams granted it, and for each person listed, their
 * company administrator, company roles and member roles here. In that order, each kind by its ids.
 */
export function reviewItems(review: AccessReview): AccessReviewItem[] {
  const person = new Map(review.people.map((p) => [p.id, p]));
  const who = (userId: number) => ({ userId, userName: person.get(userId)?.name ?? '', userEmail: person.get(userId)?.email ?? '' });
  const items: AccessReviewItem[] = [];
  for (const u of review.grants.users) items.push({ itemId: `workspace-user-${u.id}`, kind: 'workspace-user', userId: u.id, userName: u.name, userEmail: u.email });
  for (const t of review.grants.teams) items.push({ itemId: `workspace-team-${t.id}`, kind: 'workspace-team', teamId: t.id, teamName: t.name });
  for (const t of review.grants.teams) {
    for (const userId of t.memberIds) items.push({ itemId: `team-member-${t.id}-${userId}`, kind: 'team-member', teamId: t.id, teamName: t.name, ...who(userId) });
  }
  for (const p of review.people) {
    if (p.isAdmin) items.push({ itemId: `admin-${p.id}`, kind: 'admin', ...who(p.id) });
    for (const r of p.roles) {
      const kind = r.scope === 'company' ? 'company-role' : 'workspace-role';
      items.push({ itemId: `${kind}-${p.id}-${r.id}`, kind, ...who(p.id), roleId: r.id, roleName: r.name, permissions: r.permissions });
    }
  }
  return items;
}

/** Whether the grant an item names is still held in `state` (the company's access now). */
export function stillHeld(state: AccessState, workspaceId: number, item: Pick<AccessReviewItem, 'kind' | 'userId' | 'teamId' | 'roleId'>): boolean {
  const ws = state.workspaces.get(workspaceId);
  const person = item.userId === undefined ? undefined : state.people.get(item.userId);
  switch (item.kind) {
    case 'workspace-user':
      return ws?.users.has(item.userId!) ?? false;
    case 'workspace-team':
      return ws?.teams.has(item.teamId!) ?? false;
    case 'team-member':
      return state.teams.get(item.teamId!)?.members.has(item.userId!) ?? false;
    case 'workspace-role':
      return ws?.memberRoles.get(item.userId!)?.has(item.roleId!) ?? false;
    case 'company-role':
      return person?.roleIds.has(item.roleId!) ?? false;
    case 'admin':
      return person?.isAdmin ?? false;
  }
}
