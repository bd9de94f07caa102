export { roleDecider, type RoleCommand, type RoleState } from './decide.js';
export { roleStream, type RoleEvent } from '#events/organization/roles.js';
export { BUILT_IN_ROLES, effectivePermissions, type BuiltInRole } from './built-in.js';
