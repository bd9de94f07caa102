/** Events of the `team-<id>` stream. */
export type TeamEvent =
  | { type: 'TeamCreated'; payload: { teamId: number; companyId: number; name: string; description: string } }
  | { type: 'TeamUpdated'; payload: { teamId: number; name?: string; description?: string } }
  | { type: 'TeamDeleted'; payload: { teamId: number; name: string } }
  | { type: 'TeamMemberAdded'; payload: { teamId: number; userId: number } }
  | { type: 'TeamMemberRemoved'; payload: { teamId: number; userId: number } };

export const teamStream = (teamId: number): string => `team-${teamId}`;
