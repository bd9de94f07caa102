import { ALL_PROJECTIONS } from './all-projections.js';
import { personalReadModels } from './personal-read-models.js';
import replyFrom from '@fastify/reply-from';
import type { FastifyInstance } from 'fastify';
import { createHttpServer } from '#shared/http/server.js';
import { AppError } from '#shared/errors.js';
import { SECURITY_SCHEMES, securityFor, type HeaderCredentialPaths } from './gateway/openapi-security.js';
import { authenticateToken, checkModuleAccess, installAccessControl } from './gateway/access-control.js';
import { installRateLimits } from '#shared/http/rate-limit.js';
import { documentIdempotencyKey, installIdempotency } from '#shared/http/idempotency.js';
import { loadSecretBox } from '#shared/auth/index.js';
import { createMemoryKv } from '#shared/kv/index.js';
import { consoleFallback, installConsole } from './gateway/console.js';
import { installCors } from './gateway/cors.js';
import { cachedPermissionResolver, cachedWorkspaceResolver } from './gateway/workspace-cache.js';
import { installWsForwarding, type ForwardedPrefix } from './gateway/ws-forward.js';
import { MODULE_ROUTES, moduleFor, pathOf, rewriteUrl, type ModuleName } from './gateway/policy.js';
import { healthRoutes, type ReadinessCheck } from './health.js';
import { createDfModule, deviceSessionsForResults, type DfModule } from './df/index.js';
import { createOrganizationModule, type OrganizationModule, type RevocableToken } from './organization/index.js';
import { createTmtModule, type TmtModule } from './tmt/index.js';
import { createHealthcheckModule, type HealthcheckModule } from './healthcheck/index.js';
import { createAutorunnerModule, type AutorunnerModule } from './autorunner/index.js';
import type { Platform } from './platform.js';
import { traceHeaders } from '#shared/tracing/index.js';

/** The read model the gateway's access checks read (users, roles, workspaces, grants, teams). */
const DIRECTORY = ['org-directory'] as const;

export const SERVICE_NAMES = ['gateway', 'organization', 'df', 'tmt', 'healthcheck', 'autorunner', 'projections'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface BuildAppOptions {
  /** Services this process runs. */
  services: ReadonlySet<ServiceName>;
  /** Extra readiness checks (projections caught up). */
  readiness?: ReadinessCheck[];
  /** More of `/health?detail=true` (the projection leases: who holds what). */
  healthDetail?: () => Promise<Record<string, unknown>>;
  /** More of `/ready`'s answer (which projections this process applies). */
  readySummary?: () => Record<string, unknown>;
}

export interface BuiltApp {
  app: FastifyInstance;
  organization: OrganizationModule;
  df: DfModule;
  tmt: TmtModule;
  healthcheck: HealthcheckModule;
  autorunner: AutorunnerModule;
}

const remoteUrl = (platform: Platform, module: ModuleName): string | undefined =>
  ({
    organization: platform.config.ORGANIZATION_URL,
    df: platform.config.DF_URL,
    tmt: platform.config.TMT_URL,
    healthcheck: platform.config.HEALTHCHECK_URL,
    autorunner: platform.config.AUTORUNNER_URL,
  })[module];

/**
 * The HTTP face of a process: with `gateway` it is the single entry point (CORS, rewrites, access
 * control, then each module in-process or forwarded to its URL); a module alone serves its own
 * routes behind the same access control, verifying tokens locally.
 */
export async function buildApp(platform: Platform, options: BuildAppOptions): Promise<BuiltApp> {
  const { config } = platform;
  const { services } = options;
  const gateway = services.has('gateway');
  // Module header credentials are known once the modules exist, which is before any route is registered.
  const headerCredentials: HeaderCredentialPaths[] = [];
  // A device-testing server of its own sees its paths without the gateway's `/df`.
  const gatewayPathOf = (url: string) => (!gateway && services.has('df') && /^\/(api|wd|ws|devtools)(\/|$)/.test(url) ? `/df${url}` : url);
  const app = await createHttpServer({
    logger: platform.logger,
    security: { schemes: SECURITY_SCHEMES, of: (method, url) => securityFor(method, gatewayPathOf(url), headerCredentials) },
    bodyLimit: config.BODY_LIMIT,
    trustProxy: config.TRUST_PROXY,
    metrics: { token: config.METRICS_TOKEN, port: config.METRICS_PORT },
    openapi: { title: 'QA Platform API', version: '1.0.8', description: 'Organization, device testing, test management, health checks and test engines.', complete: (doc) => documentIdempotencyKey(doc, gatewayPathOf) },
    ...(gateway ? { rewriteUrl: (url: string) => rewriteUrl(url), notFound: consoleFallback(() => consoleServed) } : {}),
  });
  let consoleServed = false;
  const organization = createOrganizationModule(platform, { personalReadModels: personalReadModels(platform, ALL_PROJECTIONS) });
  const tokenChecks = { tokens: platform.tokens, isRevoked: (t: RevocableToken) => organization.auth.revocations.isRevoked(t), resolveWorkspace: organization.resolveWorkspace };
  const tmt = createTmtModule(platform, { organization, deviceSessions: deviceSessionsForResults(platform) });
  const df = createDfModule(platform, {
    testResults: tmt.testResults,
    resolveWorkspace: organization.resolveWorkspace,
    credentialHeld: (key) => organization.auth.enforcement.holds(key),
    permissionsOf: organization.permissionsOf,
    auditChain: organization.auditChain,
    // A viewer's token from its first WebSocket message passes the same checks as a bearer header.
    authenticate: async (token, workspaceId) => {
      const found = await authenticateToken(tokenChecks, token, workspaceId === null ? undefined : String(workspaceId));
      checkModuleAccess(moduleFor('/df/ws'), found, 'GET');
      return { principal: found.principal, workspace: found.workspace! };
    },
  });

  const healthcheck = createHealthcheckModule(platform, { organization });
  const autorunner = createAutorunnerModule(platform, { organization, tmt });

  headerCredentials.push(...healthcheck.credentials, ...autorunner.credentials);
  await app.register(healthRoutes, { platform, checks: options.readiness ?? [], ...(options.healthDetail ? { detail: options.healthDetail } : {}), ...(options.readySummary ? { summary: options.readySummary } : {}) });

  if (gateway) installCors(app, { platformDomain: config.PLATFORM_DOMAIN, allowLocalhost: config.NODE_ENV !== 'production' });
  const ownModule = gateway ? undefined : MODULE_ROUTES.find((r) => services.has(r.module as ServiceName));
  // Workspace access and permission keys follow the directory read model: dropped whenever this
  // process's `org-directory` moves (not at every write to another read model), trusted for 2 s when
  // another process runs it.
  const accessCache = { ttlMs: 2000, version: () => platform.readModels.version?.(DIRECTORY) };
  // Rate limits at the edge only (a module behind the gateway would count each request again). The
  // embedded mode is one process: its counters need not be durable, so they stay in memory. With Redis
  // they are shared, and counted in this process while Redis is away.
  const limitUsers = gateway
    ? installRateLimits(app, config.REDIS_URL ? platform.counters : createMemoryKv(), {
        windowMs: config.RATE_LIMIT_WINDOW,
        perAddress: config.RATE_LIMIT_PER_ADDRESS,
        perUser: config.RATE_LIMIT_PER_USER,
        perCredential: config.RATE_LIMIT_PER_CREDENTIAL,
        newSessions: config.RATE_LIMIT_NEW_SESSIONS,
      }, { credentialHeaders: ['authorization', 'x-auth-token', 'x-api-key', ...headerCredentials.map((c) => c.header)] })
    : () => undefined;
  const resolveWorkspace = cachedWorkspaceResolver(organization.resolveWorkspace, accessCache);
  installAccessControl(app, {
    tokens: platform.tokens,
    isRevoked: (t) => organization.auth.revocations.isRevoked(t),
    isRevokedNow: (t) => organization.auth.revocations.revokedNow(t),
    sessionUsed: (use) => organization.auth.sessions.used(use.sid, use.address),
    resolveWorkspace,
    resolveWorkspaceNow: resolveWorkspace.now,
    permissionsOf: cachedPermissionResolver(organization.permissionsOf, accessCache),
    verifyApiKey: df.verifyApiKey,
    authenticatesItself: [/^\/df\/ws\/sessions\/[^/]+$/],
    credentials: [...healthcheck.credentials, ...autorunner.credentials],
    scopedCredentials: organization.credentials.scoped,
    ...(ownModule ? { ownModule } : {}),
  });
  limitUsers();
  // Keys are honoured where the handler runs, once the caller is known: the gateway leaves a forwarded
  // request's key to the module that runs it (the forwarding routes below say so).
  installIdempotency(app, {
    db: platform.db,
    ttlMs: config.IDEMPOTENCY_TTL,
    inFlightMs: config.IDEMPOTENCY_IN_FLIGHT_TIMEOUT,
    maxAnswerBytes: config.IDEMPOTENCY_MAX_ANSWER_BYTES,
    box: loadSecretBox({ key: config.SECRETS_KEY, previousKeys: config.SECRETS_PREVIOUS_KEYS, dataDir: config.DATA_DIR }),
    now: () => platform.now(),
    gatewayPath: gatewayPathOf,
  });

  const serve = (module: ModuleName) => services.has(module as ServiceName);
  const forwarded: ForwardedPrefix[] = [];
  for (const route of MODULE_ROUTES) {
    if (!gateway || serve(route.module)) continue;
    const url = remoteUrl(platform, route.module);
    if (url) forwarded.push({ prefix: route.prefix, strip: route.strip, url });
  }

  if (serve('organization')) {
    await app.register(organization.routes, { prefix: '/api/v1' });
    await app.register(organization.credentials.tokenRoutes);
    await app.register(organization.scimRoutes);
    app.get('/.well-known/jwks.json', { schema: { hide: true } }, async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return platform.keys.publicJwks;
    });
  }
  if (serve('df')) await app.register(df.routes, { prefix: gateway ? '/df' : '' });
  if (serve('tmt')) await app.register(tmt.routes);
  if (serve('healthcheck')) await app.register(healthcheck.routes);
  if (serve('autorunner')) await app.register(autorunner.routes);

  // The web console at `/`, after every API route so none of them is shadowed.
  if (gateway) consoleServed = await installConsole(app, config.CONSOLE_DIR);

  if (forwarded.length > 0) {
    await app.register(replyFrom, { undici: { connections: 128, pipelining: 1 } });
    for (const f of forwarded) {
      const handler = (request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
        const path = pathOf(request.url);
        const query = request.url.slice(path.length);
        const target = new URL((f.strip ? path.slice(f.prefix.length) || '/' : path) + query, f.url).toString();
        // The module's server span continues this one (W3C `traceparent`) when tracing is on.
        const trace = traceHeaders();
        return reply.from(target, {
          // The module learns the address the client used (it writes URLs back to the client, e.g. /df/devtools).
          rewriteRequestHeaders: (_req, headers) => ({ ...headers, ...trace, 'x-request-id': request.id, 'x-forwarded-host': request.host, 'x-forwarded-proto': request.protocol }),
          onError: (r, { error }) => void r.send(forwardFailure(error as Error & { statusCode?: number })),
        });
      };
      await app.register(async (scope) => {
        // Any other body (a multipart upload, the bytes of a signed PUT) goes on as the stream it came as:
        // without this the gateway refused it 415 before forwarding.
        scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
        scope.all(f.prefix, { schema: { hide: true }, config: { idempotency: false } }, handler);
        scope.all(`${f.prefix}/*`, { schema: { hide: true }, config: { idempotency: false } }, handler);
      });
    }
    // WebSocket upgrades bypass the routes above: relayed to the same module, the prefix stripped alike.
    installWsForwarding(app, { forwards: forwarded, logger: app.log });
  }
  return { app, organization, df, tmt, healthcheck, autorunner };
}

/**
 * What a client is answered when the module a request was forwarded to failed it: a timeout is 504; a
 * module that refuses connections (not started, restarting) 503 with a time to retry; a module that
 * broke the connection off (it died mid-answer) or answered nothing HTTP 502 — never a 500, which
 * would say the gateway itself failed.
 */
function forwardFailure(error: Error & { statusCode?: number; cause?: unknown }): AppError {
  const cause = (error.cause ?? {}) as { code?: string; cause?: { code?: string } };
  const refused = cause.code === 'ECONNREFUSED' || cause.cause?.code === 'ECONNREFUSED';
  if (error.statusCode === 504) return new AppError('GATEWAY_TIMEOUT', 'The module did not answer in time', { cause: error });
  if (error.statusCode === 503 || refused) return new AppError('SERVICE_UNAVAILABLE', 'The module is unavailable; try again shortly', { cause: error, headers: { 'retry-after': '5' } });
  return new AppError('BAD_GATEWAY', 'The module broke off its answer', { cause: error });
}
