/** Events of the `role-<id>` stream. */
export type RoleEvent =
  | {
      type: 'RoleCreated';
      payload: { roleId: number; companyId: number; name: string; description: string; permissions: string[]; builtIn: boolean };
    }
  | { type: 'RoleUpdated'; payload: { roleId: number; name?: string; description?: string; permissions?: string[] } }
  | { type: 'RoleDeleted'; payload: { roleId: number; name: string } };

export const roleStream = (roleId: number): string => `role-${roleId}`;
