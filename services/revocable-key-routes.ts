import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { KeyView } from '#projections/revocable-keys.js';
import { hashToken, randomToken } from '#shared/auth/index.js';
import { forbidden, found } from '#shared/errors.js';
import type { Decider, DomainEvent } from '#shared/es/index.js';
import type { KeyCommand, KeyState, StoredKey } from '#shared/es/index.js';
import { idParam, paging, workspaceCaller, type WorkspaceCaller } from '#shared/http/params.js';
import { pageSchema, type Page } from '#shared/paging.js';
import type { PermissionKey } from '#shared/permissions.js';
import type { Platform } from './platform.js';
import { revocableKeyWrites } from './revocable-key-writes.js';
import { signInMethodOf } from './sign-in-method.js';

/** One module's revocable API keys (device testing, health checks): where they live and what they are called. */
export interface RevocableKeyRoutes<Create extends string, Revoke extends string> {
  platform: Platform;
  /** Collection path as the module's server sees it. */
  path: string;
  tags: string[];
  /** OpenAPI id of the key's schema. */
  schemaId: string;
  /** What the key is called in summaries ("health-check API key"). */
  what: string;
  /** The start of every value (`dfk_`), so a leaked key is recognisable. */
  valuePrefix: string;
  permission: PermissionKey;
  /** The read model the answers wait for (read-your-writes). */
  readModel: string;
  list(db: Platform['db'], scope: WorkspaceCaller, paging: { page: number; size: number }): Promise<Page<KeyView>>;
  find(db: Platform['db'], scope: WorkspaceCaller, keyId: string): Promise<KeyView | null>;
  decider: Decider<KeyCommand<Create, Revoke, StoredKey>, DomainEvent, KeyState<StoredKey>>;
  stream(keyId: string): string;
  create: Create;
  revoke: Revoke;
  /** Serve `GET <path>/:keyId` too. */
  readOne?: boolean;
  /** Checked before a key is created (a plan's key limit): throws to refuse it. */
  beforeCreate?: (caller: WorkspaceCaller) => Promise<void>;
  /**
   * Where a company requires single sign-on, keys made from a password sign-in wait for approval
   * (docs/modules/identity.md, "What enforcement ends"): which keys are held, and how an approval is
   * recorded. With it, views say `needsApproval` and `POST <path>/:keyId/approve` serves.
   */
  hold?: {
    held(key: { credentialId: string; userId: number; signIn: 'password' | 'sso' }): Promise<boolean>;
    kind: 'df-api-key' | 'hc-api-key';
  };
}

/** Create (the value is shown once), list, read and revoke a module's API keys: one set of routes for every module that issues keys. */
export function revocableKeyRoutes<Create extends string, Revoke extends string>(o: RevocableKeyRoutes<Create, Revoke>) {
  const { platform } = o;
  const Key = z
    .object({
      id: z.string(),
      name: z.string(),
      prefix: z.string(),
      createdBy: z.number(),
      workspaceId: z.number(),
      createdAt: z.string(),
      revokedAt: z.string().nullable(),
      revoked: z.boolean(),
      signIn: z.enum(['password', 'sso']).describe('How its creator was signed in when they made it'),
      needsApproval: z.boolean().describe('Made from a password sign-in while its company requires single sign-on: refused until an administrator approves it'),
    })
    .meta({ id: o.schemaId });
  const withHold = async (v: KeyView) => ({ ...v, needsApproval: o.hold ? await o.hold.held({ credentialId: v.id, userId: v.createdBy, signIn: v.signIn }) : false });
  const Params = z.object({ keyId: idParam });
  const { run, approve } = revocableKeyWrites(platform, o);

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.get(o.path, {
      schema: { tags: o.tags, summary: `${o.what}s of the workspace (never their values)`, querystring: z.object(paging), response: { 200: pageSchema(Key) } },
      handler: async (request) => {
        const page = await o.list(platform.db, await workspaceCaller(request, o.permission), request.query);
        return { ...page, content: await Promise.all(page.content.map(withHold)) };
      },
    });

    r.post(o.path, {
      schema: {
        tags: o.tags,
        summary: `New ${o.what}; its value is in this answer only`,
        body: z.object({ name: z.string().trim().min(1).max(100) }),
        response: { 201: z.object({ id: z.string(), name: z.string(), key: z.string(), prefix: z.string(), createdAt: z.string() }) },
      },
      handler: async (request, reply) => {
        const c = await workspaceCaller(request, o.permission);
        await o.beforeCreate?.(c);
        const keyId = randomUUID();
        const key = `${o.valuePrefix}${randomToken(32)}`;
        const prefix = key.slice(0, o.valuePrefix.length + 6);
        const stored: StoredKey = {
          keyId,
          name: request.body.name,
          keyHash: hashToken(key),
          prefix,
          userId: c.userId,
          companyId: c.companyId,
          workspaceId: c.workspaceId,
          signIn: await signInMethodOf(platform, request),
        };
        await run(c, keyId, { type: o.create, ...stored } as KeyCommand<Create, Revoke, StoredKey>);
        reply.code(201).header('cache-control', 'no-store');
        return { id: keyId, name: request.body.name, key, prefix, createdAt: platform.now().toISOString() };
      },
    });

    if (o.readOne) {
      r.get(`${o.path}/:keyId`, {
        schema: { tags: o.tags, summary: `One ${o.what} (never its value)`, params: Params, response: { 200: Key } },
        handler: async (request) => withHold(found(await o.find(platform.db, await workspaceCaller(request, o.permission), request.params.keyId), 'API key not found')),
      });
    }

    const hold = o.hold;
    if (hold) {
      r.post(`${o.path}/:keyId/approve`, {
        schema: {
          tags: o.tags,
          summary: `Let an ${o.what} made from a password sign-in work again where the company requires single sign-on; needs USER_ADMIN_MANAGE`,
          params: Params,
          response: { 200: Key },
        },
        handler: async (request) => {
          const c = await workspaceCaller(request, o.permission);
          if (!(await request.permissions()).has('USER_ADMIN_MANAGE')) throw forbidden(`Approving an ${o.what} needs USER_ADMIN_MANAGE`);
          const record = found(await o.find(platform.db, c, request.params.keyId), 'API key not found');
          await approve(c, record, hold.kind);
          return withHold(record);
        },
      });
    }

    r.delete(`${o.path}/:keyId`, {
      schema: { tags: o.tags, summary: `Revoke one ${o.what}; it stops working at once`, params: Params, response: { 204: z.null() } },
      handler: async (request, reply) => {
        const c = await workspaceCaller(request, o.permission);
        const record = found(await o.find(platform.db, c, request.params.keyId), 'API key not found');
        await run(c, record.id, { type: o.revoke, keyId: record.id } as KeyCommand<Create, Revoke, StoredKey>);
        reply.code(204);
        return null;
      },
    });
  };
}
