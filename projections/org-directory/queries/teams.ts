// The company's teams and their members.
import type { Sql } from '#shared/db/index.js';
import type { TeamView } from './views.js';

const teamView = `t.id, t.name, t.description,
  ARRAY(SELECT m.user_id FROM org_team_members m WHERE m.team_id = t.id ORDER BY m.user_id) AS "memberIds"`;

export async function listTeams(db: Sql, companyId: number): Promise<TeamView[]> {
  return (await db.query<TeamView & Record<string, unknown>>(`SELECT ${teamView} FROM org_teams t WHERE t.company_id = $1 ORDER BY t.id`, [companyId])).rows;
}

export async function getTeam(db: Sql, companyId: number, teamId: number): Promise<TeamView | null> {
  const r = await db.query<TeamView & Record<string, unknown>>(`SELECT ${teamView} FROM org_teams t WHERE t.id = $1 AND t.company_id = $2`, [teamId, companyId]);
  return r.rows[0] ?? null;
}
