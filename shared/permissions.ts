/**
 * The permission keys of every module (docs/api-conventions.md, "Identity"): organization keys in the
 * upper-case form, device-testing keys in the colon form. Services enforce these keys, never role
 * names; roles are only bundles of keys.
 */
export interface PermissionDefinition {
  key: string;
  module: 'ORGANIZATION' | 'TMT' | 'DF' | 'AUTORUNNER' | 'HEALTHCHECK';
  description: string;
}

export const PERMISSIONS = [
  { key: 'USER_READ', module: 'ORGANIZATION', description: 'See the users of the company' },
  { key: 'USER_INVITE', module: 'ORGANIZATION', description: 'Invite users' },
  { key: 'USER_MANAGE', module: 'ORGANIZATION', description: 'Change, activate, deactivate and delete users' },
  { key: 'USER_ADMIN_MANAGE', module: 'ORGANIZATION', description: 'Grant and revoke company administrator' },
  { key: 'USER_PASSWORD_MANAGE', module: 'ORGANIZATION', description: "Change another user's password" },
  { key: 'ROLE_READ', module: 'ORGANIZATION', description: 'See roles and permissions' },
  { key: 'ROLE_MANAGE', module: 'ORGANIZATION', description: 'Create, change and delete roles' },
  { key: 'TEAM_READ', module: 'ORGANIZATION', description: 'See teams' },
  { key: 'TEAM_MANAGE', module: 'ORGANIZATION', description: 'Create, change and delete teams and their members' },
  { key: 'WORKSPACE_READ', module: 'ORGANIZATION', description: 'See workspaces' },
  { key: 'WORKSPACE_CREATE', module: 'ORGANIZATION', description: 'Create workspaces' },
  { key: 'WORKSPACE_MANAGE', module: 'ORGANIZATION', description: 'Change, archive and delete workspaces, their modules and access' },
  { key: 'AUDIT_READ', module: 'ORGANIZATION', description: 'Read and export the audit history' },
  { key: 'API_KEY_MANAGE', module: 'ORGANIZATION', description: "See and revoke other users' /v1 API keys and OAuth clients in the workspace, and set their rate budgets" },
  { key: 'TMT_READ', module: 'TMT', description: 'See test cases, sessions and projects' },
  { key: 'TMT_WRITE', module: 'TMT', description: 'Create and change test cases, sessions, results and projects' },
  { key: 'TMT_DELETE', module: 'TMT', description: 'Delete test cases, sessions and projects' },
  { key: 'HEALTHCHECK_READ', module: 'HEALTHCHECK', description: 'See health checks' },
  { key: 'HEALTHCHECK_MANAGE', module: 'HEALTHCHECK', description: 'Manage health checks and their API keys' },
  { key: 'AUTORUNNER_READ', module: 'AUTORUNNER', description: 'See test engines and their runs' },
  { key: 'AUTORUNNER_MANAGE', module: 'AUTORUNNER', description: 'Register and revoke test engines' },
  { key: 'df:device:read', module: 'DF', description: 'See devices' },
  { key: 'df:device:manage', module: 'DF', description: 'Set device maintenance, aliases for everyone' },
  { key: 'df:session:read', module: 'DF', description: "See sessions: their records, states and activity summaries (a session's screen and data only for its owner and the people it is shared with)" },
  { key: 'df:session:create', module: 'DF', description: 'Open sessions and drive devices' },
  { key: 'df:session:manage', module: 'DF', description: "End or delete other users' sessions" },
  { key: 'df:session:review', module: 'DF', description: "See any session's content in the workspace (screen, UI tree, logs, recordings, artifacts), read-only: for auditors" },
  { key: 'df:session:share', module: 'DF', description: 'Invite coworkers to a session' },
  { key: 'df:debug:use', module: 'DF', description: 'Use debugging (adb, jdwp, lldb, inspector, CDP)' },
  { key: 'df:app:install', module: 'DF', description: 'Install and uninstall apps, move files' },
  { key: 'df:file:manage', module: 'DF', description: 'Upload and delete files and catalog apps' },
  { key: 'df:reservation:manage', module: 'DF', description: 'Create and change reservations' },
  { key: 'df:accessibility:use', module: 'DF', description: 'Run and triage accessibility audits' },
  { key: 'df:report:read', module: 'DF', description: 'See dashboards, reports and quotas' },
  { key: 'df:key:manage', module: 'DF', description: 'Create and revoke device-testing API keys' },
  { key: 'df:settings:manage', module: 'DF', description: 'Change session defaults' },
  { key: 'df:host:manage', module: 'DF', description: 'Enrol, re-scope and revoke device hosts' },
  { key: 'df:session:purge', module: 'DF', description: "Remove an ended session's record, timeline and artifacts" },
] as const satisfies readonly PermissionDefinition[];

export type PermissionKey = (typeof PERMISSIONS)[number]['key'];

export const ALL_PERMISSION_KEYS: readonly PermissionKey[] = PERMISSIONS.map((p) => p.key);
