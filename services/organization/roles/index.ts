export { roleDecider, type RoleCommand, type RoleState } from './decide.js';
export { roleStream, type RoleEvent } from './events.js';
export { BUILT_IN_ROLES, effectivePermissions, type BuiltInRole } from './built-in.js';
