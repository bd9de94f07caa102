import { ALL_PERMISSION_KEYS, type PermissionKey } from '#shared/permissions.js';

// The audit history is for auditors and administrators, not for everyone who may read.
const readKeys = ALL_PERMISSION_KEYS.filter((k) => /(_READ$|:read$)/.test(k) && k !== 'AUDIT_READ');

export interface BuiltInRole {
  name: string;
  description: string;
  permissions: readonly PermissionKey[];
}

/**
 * The roles every company starts with (docs/api-conventions.md): Admin holds every key. Each company has its own
 * copy (its own ids, created by `RoleCreated` with `builtIn: true`), but what a built-in role grants is
 * read from here, so a key added to the catalog later reaches every company's built-in roles.
 */
export const BUILT_IN_ROLES: readonly BuiltInRole[] = [
  { name: 'Admin', description: 'Everything, in every workspace of the company', permissions: ALL_PERMISSION_KEYS },
  {
    name: 'Member',
    description: 'Works with tests and devices',
    permissions: [
      ...readKeys,
      'TMT_WRITE',
      'df:session:create',
      'df:session:share',
      'df:debug:use',
      'df:app:install',
      'df:file:manage',
      'df:reservation:manage',
      'df:accessibility:use',
    ],
  },
  { name: 'Viewer', description: 'Reads everything, changes nothing', permissions: readKeys },
];

const byName = new Map(BUILT_IN_ROLES.map((r) => [r.name, r]));

/** The keys a role grants: a built-in role's current definition, else what was stored for it. */
export function effectivePermissions(role: { name: string; builtIn: boolean; permissions: readonly string[] }): readonly string[] {
  return role.builtIn ? (byName.get(role.name)?.permissions ?? role.permissions) : role.permissions;
}
