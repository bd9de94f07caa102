/**
 * The gateway's rules as data (docs/architecture.md, "Processes and services"): which paths are public, which module owns each
 * prefix and the entitlement it needs, where a device-testing API key is accepted, and where `/v1`
 * API keys and OAuth client tokens are accepted and which scope each method needs.
 */

export type ModuleName = 'organization' | 'df' | 'tmt' | 'healthcheck' | 'autorunner';

export interface ModuleRoute {
  module: ModuleName;
  /** URL prefix at the gateway. */
  prefix: string;
  /** Stripped before forwarding to the module's own server (only `/df`). */
  strip: boolean;
  /** Module key the active workspace must have; null for the organization itself. */
  entitlement: string | null;
}

/** Longest prefix first. */
export const MODULE_ROUTES: readonly ModuleRoute[] = [
  { module: 'organization', prefix: '/api/v1', strip: false, entitlement: null },
  { module: 'df', prefix: '/df', strip: true, entitlement: 'DF' },
  { module: 'tmt', prefix: '/tmt', strip: false, entitlement: 'TMT' },
  { module: 'tmt', prefix: '/v1', strip: false, entitlement: 'TMT' },
  // The OAuth 2.0 token endpoint of the /v1 set: the organization issues client tokens.
  { module: 'organization', prefix: '/oauth', strip: false, entitlement: null },
  // SCIM 2.0 provisioning (docs/modules/scim.md): the organization's users and teams for a company's directory.
  { module: 'organization', prefix: '/scim', strip: false, entitlement: null },
  { module: 'healthcheck', prefix: '/healthcheck', strip: false, entitlement: 'HEALTHCHECK' },
  { module: 'autorunner', prefix: '/autorunner', strip: false, entitlement: 'AUTORUNNER' },
];

interface PathRule {
  methods?: readonly string[];
  pattern: RegExp;
}

/**
 * The web console's pages and assets (services/gateway/console.ts): every path outside the API
 * prefixes and the platform's own documents, which keep precedence and keep answering JSON.
 */
export const CONSOLE_PATH = /^\/(?!(api|df|v1|tmt|oauth|scim|healthcheck|autorunner|docs|openapi\.json|health|ready|metrics|\.well-known)(\/|$))/;

/** Reached without any credential (public mock services, plus the platform's own documents and probes). */
export const PUBLIC_PATHS: readonly PathRule[] = [
  { methods: ['POST'], pattern: /^\/api\/v1\/auth\/(login|refresh|signup|forgot-password|reset-password)$/ },
  // An invited user has no password yet: the single-use invitation token in the body is the credential.
  { methods: ['PUT', 'POST'], pattern: /^\/api\/v1\/users\/activate$/ },
  { methods: ['GET', 'HEAD'], pattern: /^\/api\/v1\/auth\/jwks$/ },
  // Single sign-on: the providers of an address, the browser's round trip through one (SAML posts its
  // answer), and the console's one-time code for the pair; the provider's answer is the credential.
  { methods: ['GET', 'HEAD'], pattern: /^\/api\/v1\/auth\/(providers|sso\/\d+\/(start|callback))$/ },
  { methods: ['POST'], pattern: /^\/api\/v1\/auth\/sso\/(\d+\/callback|exchange)$/ },
  { methods: ['GET', 'HEAD'], pattern: /^\/\.well-known\/jwks\.json$/ },
  { methods: ['GET', 'HEAD'], pattern: /^\/(health|ready|openapi\.json)$/ },
  { methods: ['GET', 'HEAD'], pattern: /^\/docs(\/.*)?$/ },
  // The web console's pages and assets (services/gateway/console.ts): everything outside the API prefixes.
  { methods: ['GET', 'HEAD'], pattern: CONSOLE_PATH },
  { pattern: /^\/tmt\/api\/v1\/public\/download\/.+/ },
  { methods: ['POST'], pattern: /^\/healthcheck\/api\/v1\/(heartbeat|metrics)\/[^/]+$/ },
  { pattern: /^\/tmt\/api\/v1\/public\/[^/]+\/mock-services\/[^/]+(\/.*)?$/ },
  // Signed blob URLs (the file-system store's uploads and downloads): the signature is the credential.
  { methods: ['GET', 'HEAD', 'PUT'], pattern: /^\/df\/api\/files\/blobs\/.+/ },
  // dfctl's download files and the client packages' tarballs (services/df/client-config/routes.ts): the same
  // for everyone and not secret, so a machine with only Node.js can install them before it has any credential.
  { methods: ['GET', 'HEAD'], pattern: /^\/df\/downloads\/(dfctl|packages)\/[^/]+$/ },
  // Pre-authorised by their own credentials (engine token, OAuth client secret), checked by the module.
  { methods: ['POST'], pattern: /^\/oauth\/token$/ },
  // SCIM: the company's `scim_` bearer token, checked by the organization module on every request.
  { pattern: /^\/scim\/v2(\/.*)?$/ },
];

/**
 * Where a signed-in user acts without any workspace of their own: the request names what it acts on,
 * and its module checks the rest. Accepting a session invitation: the token names the session (and so
 * its workspace), and a coworker invited to one session need not be able to enter its workspace. Here
 * `X-Workspace-Id` is not read and no module entitlement is asked for.
 */
export const WORKSPACE_FREE_PATHS: readonly PathRule[] = [{ methods: ['POST'], pattern: /^\/df\/api\/session-invites\/[^/]+\/accept$/ }];

/** Where `X-Api-Key` is a credential. */
export const API_KEY_PATHS = {
  /** Routed by API key whenever the header is present. */
  always: [/^\/df\/api\/sessions(\/.*)?$/, /^\/df\/api\/devices(\/.*)?$/, /^\/df\/wd(\/.*)?$/, /^\/df\/devtools(\/.*)?$/, /^\/df\/api\/automation(\/.*)?$/],
  /** Accepted only when no bearer token is sent. */
  withoutBearer: [/^\/df\/api\/files\/presigned-upload$/, /^\/df\/api\/files\/[^/]+\/confirm$/],
} as const;

/**
 * docs/api-conventions.md, "The /v1 set": where a `/v1` API key (`Authorization: Bearer qak_...`) or an OAuth
 * client token is a credential. Everywhere else they are refused with 401; a platform access token
 * works on these paths too, without any scope limit.
 */
export const SCOPED_CREDENTIAL_PATHS: readonly RegExp[] = [/^\/v1(\/.*)?$/];

/** The scope a `/v1` API key or OAuth client token needs for a method; `admin` allows every method. */
export const SCOPE_OF_METHOD: Readonly<Record<string, 'read' | 'write' | 'delete'>> = {
  GET: 'read',
  HEAD: 'read',
  OPTIONS: 'read',
  POST: 'write',
  PUT: 'write',
  PATCH: 'write',
  DELETE: 'delete',
};

/**
 * Areas beyond `/v1` that a pipeline key opens with a scope of their own (docs/modules/credentials.md,
 * "One key for a pipeline"): `devices` reaches what a device key (`dfk_`) reaches — sessions, devices, the
 * WebDriver hub, the CDP relay, automation events, app uploads — and `webhooks` the webhooks of the key's
 * workspace (the path's workspace must be the key's own: `workspace` names its capture group). There a
 * key's `read`/`write`/`delete` scopes play no part.
 */
export const AREA_SCOPES: readonly { scope: 'devices' | 'webhooks'; what: string; paths: readonly RegExp[]; workspaceGroup?: number }[] = [
  { scope: 'devices', what: 'the device API (/df)', paths: [...API_KEY_PATHS.always, ...API_KEY_PATHS.withoutBearer] },
  { scope: 'webhooks', what: "the workspace's webhooks", paths: [/^\/api\/v1\/workspaces\/(\d+)\/webhooks(\/.*)?$/], workspaceGroup: 1 },
];

/** The area scope a path needs, with the workspace the path names (webhooks), or null for a path outside them. */
export function areaScopeFor(path: string): { scope: 'devices' | 'webhooks'; what: string; workspaceId: number | null } | null {
  for (const area of AREA_SCOPES) {
    for (const p of area.paths) {
      const m = p.exec(path);
      if (m) return { scope: area.scope, what: area.what, workspaceId: area.workspaceGroup !== undefined ? Number(m[area.workspaceGroup]) : null };
    }
  }
  return null;
}

export function acceptsScopedCredential(path: string): boolean {
  return SCOPED_CREDENTIAL_PATHS.some((p) => p.test(path)) || areaScopeFor(path) !== null;
}

/** The scope `method` needs: `admin` for a method not in the table. */
export function scopeFor(method: string): 'read' | 'write' | 'delete' | 'admin' {
  return SCOPE_OF_METHOD[method.toUpperCase()] ?? 'admin';
}

/** Whether a credential with `scopes` may use `method` on `/v1` (`admin` allows all). */
export function scopeAllows(scopes: readonly string[], method: string): boolean {
  return scopes.includes('admin') || scopes.includes(scopeFor(method));
}

/** `/tmt/api/v1/auth/**` is the organization's `/api/v1/auth/**`. */
export function rewriteUrl(url: string): string {
  return url.startsWith('/tmt/api/v1/auth/') ? url.slice('/tmt'.length) : url;
}

export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

const matches = (rules: readonly PathRule[], method: string, path: string) => rules.some((r) => r.pattern.test(path) && (!r.methods || r.methods.includes(method)));

export function isPublic(method: string, path: string): boolean {
  return matches(PUBLIC_PATHS, method, path);
}

/**
 * Every process's own liveness and readiness probes, at its root whichever module it serves, and its
 * `/metrics`, which checks its own token (shared/metrics).
 */
const PROBE_PATHS: readonly PathRule[] = [{ methods: ['GET', 'HEAD'], pattern: /^\/(health|ready|metrics)$/ }];

/**
 * Whether a path as the process received it is one of its probes. A module's own server reads other
 * paths as the gateway saw them (`/ready` of the device module's server would be `/df/ready`), so the
 * probes are recognised before that.
 */
export function isProbe(method: string, localPath: string): boolean {
  return matches(PROBE_PATHS, method, localPath);
}

/** Whether a signed-in user's request needs no workspace (`WORKSPACE_FREE_PATHS`). */
export function isWorkspaceFree(method: string, path: string): boolean {
  return matches(WORKSPACE_FREE_PATHS, method, path);
}

/** The module that owns a path, matched on whole segments (`/dfx` is not `/df`). */
export function moduleFor(path: string): ModuleRoute | null {
  for (const route of MODULE_ROUTES) {
    if (path === route.prefix || path.startsWith(`${route.prefix}/`)) return route;
  }
  return null;
}

export function acceptsApiKey(path: string, hasBearer: boolean): boolean {
  if (API_KEY_PATHS.always.some((p) => p.test(path))) return true;
  return !hasBearer && API_KEY_PATHS.withoutBearer.some((p) => p.test(path));
}
