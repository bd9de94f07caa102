import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import { roleRoutes, type RolesOptions } from './routes.js';

export { roleDecider, type RoleCommand, type RoleState } from './decide.js';
export { roleStream, type RoleEvent } from '#events/organization/roles.js';
export { BUILT_IN_ROLES, effectivePermissions, type BuiltInRole } from './built-in.js';
export { createBuiltInRoles } from './create-built-in.js';
export { assertMayGrant, assertMayGrantRoles, requireRoles } from './grant.js';
export { permissionsOf } from './permissions-of.js';

export type { RolesOptions };

/** Roles (built-in and custom), the permission catalog, and the caller's keys. */
export const rolesFeature = fp<RolesOptions>(routePlugins(roleRoutes), { name: 'organization-roles', fastify: '5.x' });
