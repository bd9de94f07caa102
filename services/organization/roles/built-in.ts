import { ALL_PERMISSION_KEYS, type PermissionKey } from '#shared/permissions.js';

const readKeys = ALL_PERMISSION_KEYS.filter((k) => /(_READ$|:read$)/.test(k));

/** The roles every company starts with (decisions.md): Admin holds every key. */
export const BUILT_IN_ROLES: readonly { name: string; description: string; permissions: readonly PermissionKey[] }[] = [
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
