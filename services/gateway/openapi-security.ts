import { API_KEY_PATHS, isPublic, moduleFor } from './policy.js';

/** An OpenAPI security requirement: scheme names that must all be sent together. */
export type SecurityRequirement = Record<string, string[]>;

/** The schemes every operation may name; Swagger UI's "Authorize" dialog offers each once. */
export const SECURITY_SCHEMES = {
  bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token from POST /api/v1/auth/login (on /v1 also a qak_ API key or an OAuth client token)' },
  workspaceHeader: { type: 'apiKey', in: 'header', name: 'X-Workspace-Id', description: 'The active workspace; the token’s own workspace when not sent' },
  apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'A device-testing key (dfk_...) on /df paths, a health-check key on /healthcheck/api/v1' },
  engineToken: { type: 'apiKey', in: 'header', name: 'X-Engine-Token', description: 'A test engine’s token on /autorunner/api/v1' },
} as const;

/** A credential sent in its own header on some paths (module credentials of the access control). */
export interface HeaderCredentialPaths {
  header: string;
  paths: readonly RegExp[];
}

const SCHEME_OF_HEADER: Record<string, keyof typeof SECURITY_SCHEMES> = { 'x-api-key': 'apiKeyHeader', 'x-engine-token': 'engineToken' };

/**
 * The security requirements of one operation, as the access control applies them to its gateway path:
 * none on public paths; otherwise a bearer token with the workspace header (so "Try it out" sends it),
 * a bearer token alone on the organization's own paths (where the token's workspace serves), and the
 * module's header credentials where the policy accepts them.
 */
export function securityFor(method: string, gatewayPath: string, credentials: readonly HeaderCredentialPaths[]): SecurityRequirement[] {
  // Route patterns (`/:id`, `/*`) stand for one concrete segment when matching the policy's expressions.
  const path = gatewayPath.replace(/\/:[^/]+/g, '/x').replace(/\/\*$/, '/x');
  if (isPublic(method, path)) return [];
  const module = moduleFor(path);
  const requirements: SecurityRequirement[] = [{ bearerAuth: [], workspaceHeader: [] }];
  if (!module || module.module === 'organization') requirements.push({ bearerAuth: [] });
  const apiKey = [...API_KEY_PATHS.always, ...API_KEY_PATHS.withoutBearer].some((p) => p.test(path));
  if (apiKey) requirements.push({ apiKeyHeader: [] });
  for (const credential of credentials) {
    const scheme = SCHEME_OF_HEADER[credential.header];
    if (scheme && credential.paths.some((p) => p.test(path)) && !requirements.some((r) => scheme in r)) requirements.push({ [scheme]: [] });
  }
  return requirements;
}
