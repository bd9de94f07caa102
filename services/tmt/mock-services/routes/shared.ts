import { z } from 'zod';
import type { MockServiceRow } from '#projections/tmt-mock-services/index.js';
import { AppError } from '#shared/errors.js';
import type { Platform } from '../../../platform.js';
import { MOCK_METHODS, MockDefinitionInput } from '../definition.js';

export const tags = ['Test management: mock services'];
export const READ_MODEL = ['tmt-mock-services'] as const;

/** The public path of a mock service; `/...` after it is matched against its routes. */
export const mockPublicPath = (module: string, publicId: string): string => `/tmt/api/v1/public/${module}/mock-services/${publicId}`;

/**
 * Calls are counted in the key-value store, not as events: the public path can be called by anyone at
 * any rate, and a count is telemetry, not a fact the domain decides on. `increment` is atomic on every
 * adapter, and the store is durable (the SQL table embedded, Redis in production).
 */
export const hitsKey = (mockId: string) => `tmt:mock-hits:${mockId}`;
export const lastHitKey = (mockId: string) => `tmt:mock-last-hit:${mockId}`;

export const StoredRoute = z.object({
  method: z.enum(MOCK_METHODS),
  path: z.string(),
  status: z.number().int(),
  headers: z.record(z.string(), z.string()),
  body: z.unknown().optional(),
  delayMs: z.number().int(),
});
export const MockService = z
  .object({
    id: z.string(),
    publicId: z.string(),
    name: z.string(),
    module: z.string(),
    enabled: z.boolean(),
    routes: z.array(StoredRoute),
    publicPath: z.string(),
    publicUrl: z.string(),
    calls: z.object({ count: z.number().int(), lastCalledAt: z.string().nullable() }),
    createdBy: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'TmtMockService' });
export const Params = z.object({ id: z.uuid() });

/** Turns a definition that fails validation into the catalog's 400 with one detail per problem. */
export function parseDefinition(body: unknown) {
  const parsed = MockDefinitionInput.safeParse(body);
  if (!parsed.success) {
    throw new AppError('VALIDATION_FAILED', 'Request validation failed', {
      details: parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
    });
  }
  return parsed.data;
}

/** A mock service as the API shows it: its definition, public URL and call counts. */
export async function mockView(platform: Platform, row: MockServiceRow) {
  const [count, last] = await Promise.all([platform.kv.get(hitsKey(row.id)), platform.kv.get(lastHitKey(row.id))]);
  const publicPath = mockPublicPath(row.module, row.publicId);
  return {
    id: row.id,
    publicId: row.publicId,
    name: row.name,
    module: row.module,
    enabled: row.enabled,
    routes: row.routes as z.infer<typeof StoredRoute>[],
    publicPath,
    publicUrl: platform.publicAddress.link(publicPath),
    calls: { count: count === null ? 0 : Number(count), lastCalledAt: last },
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
