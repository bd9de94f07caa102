/** Team and organization pages, each shown only to whoever holds its permission key. */
export const ORG_SECTIONS = [
  { path: '/org/users', label: 'Users', key: 'USER_READ' },
  { path: '/org/roles', label: 'Roles', key: 'ROLE_READ' },
  { path: '/org/teams', label: 'Teams', key: 'TEAM_READ' },
  { path: '/org/workspaces', label: 'Workspaces', key: 'WORKSPACE_READ' },
  { path: '/org/webhooks', label: 'Webhooks', key: 'WORKSPACE_MANAGE' },
  { path: '/org/domains', label: 'Domains', key: 'USER_ADMIN_MANAGE' },
  { path: '/org/identity-providers', label: 'Sign-in providers', key: 'USER_ADMIN_MANAGE' },
  { path: '/org/provisioning', label: 'Provisioning (SCIM)', key: 'USER_ADMIN_MANAGE' },
  { path: '/org/audit', label: 'Audit history', key: 'AUDIT_READ' },
  { path: '/org/access-review', label: 'Access review', key: 'AUDIT_READ' },
  { path: '/org/access-reviews', label: 'Access reviews', key: 'AUDIT_READ' },
  { path: '/org/observability', label: 'Observability', key: 'USER_ADMIN_MANAGE' },
] as const;

/** Device-testing pages beside the grid, each shown only to whoever holds its permission key. */
export const DF_SECTIONS = [
  { path: '/files', label: 'Files', key: 'df:session:read' },
  { path: '/test-runs', label: 'Test runs', key: 'df:session:read' },
  { path: '/accessibility', label: 'Accessibility', key: 'df:session:read' },
  { path: '/reports', label: 'Reports', key: 'df:report:read' },
  { path: '/hosts', label: 'Hosts', key: 'df:host:manage' },
] as const;

/** Test-management pages, each shown only to whoever holds its permission key. */
export const TMT_SECTIONS = [{ path: '/test-sessions', label: 'Test sessions', key: 'TMT_READ' }] as const;
