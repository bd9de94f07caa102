import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEVICE_SORT_COLUMNS, deviceFacets, findDevice, listDevices, type DeviceFilters, type DeviceScope } from '#projections/df-devices/index.js';
import { found } from '#shared/errors.js';
import { INPUT_PATHS, SCREEN_PATHS } from '#shared/wire/index.js';
import { DeviceHealthRecord, DeviceMendingRecord } from '#events/df/health.js';
import type { Platform } from '../../platform.js';
import type { PermissionKey } from '#shared/permissions.js';
import { caller as workspaceCaller, idParam, multi, pageOf, paging, queryBoolean } from '../http.js';
import type { DeviceCommands } from './service.js';
import { callerActor, commandContext } from '#shared/es/index.js';

export const DeviceSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    alias: z.string().nullable(),
    platform: z.string(),
    osVersion: z.string(),
    model: z.string(),
    manufacturer: z.string(),
    type: z.string(),
    isRealDevice: z.boolean(),
    status: z.string().meta({ description: '`available`, `in_use`, `reserved`, `mending` (being mended: refused with 409 `DEVICE_MENDING` until it ends; `mending` says the step), `offline`, `maintenance`' }),
    nodeName: z.string(),
    hubId: z.string(),
    favorite: z.boolean(),
    lastSeenAt: z.string(),
    provider: z.string(),
    screen: z.object({ width: z.number(), height: z.number(), scale: z.number() }),
    sessionType: z.string().nullable(),
    capabilities: z
      .object({
        screen: z.enum(SCREEN_PATHS).optional(),
        input: z.enum(INPUT_PATHS).optional(),
        text: z.enum(['ime', 'input']).optional(),
        reason: z.string().optional().meta({ description: 'Why the device runs on a fallback path or is view-only' }),
      })
      .nullable()
      .meta({
        id: 'DfDeviceCapabilities',
        description: 'How the device shows its screen and takes input (`input: none`: view-only), as its host last reported; null until a session has prepared it',
      }),
    health: DeviceHealthRecord.nullable().meta({
      id: 'DfDeviceHealth',
      description:
        'The device health as its last change left it: `cooling`, `charging`, `quarantined` and `maintenance` hold it out of use (409 `DEVICE_UNHEALTHY`), `degraded` warns; battery and storage are those of the reading that changed it (the readings: `GET /df/api/devices/{id}/health`). Null until its first reading.',
    }),
    mending: DeviceMendingRecord.nullable().meta({
      id: 'DfDeviceMending',
      description:
        'The mending under way (docs/modules/device-health.md, "Mending"): since when, until when at the latest, and the step begun last (`reboot` while it reboots; null before the host said one). While it lasts the device is `mending` and every allocation leaves it (409 `DEVICE_MENDING` when asked for by id; a WebDriver request waits for it). Null: none.',
    }),
  })
  .meta({ id: 'DfDevice' });

const STATUS = z.enum(['available', 'in_use', 'reserved', 'mending', 'offline', 'maintenance']);
const TYPE = z.enum(['phone', 'tablet', 'tv', 'watch', 'desktop']);

const Filters = {
  search: z.string().trim().max(200).optional(),
  platform: multi(z.enum(['android', 'ios', 'web'])),
  osVersion: multi(z.string().max(100)),
  model: multi(z.string().max(200)),
  type: multi(TYPE),
  excludeType: multi(TYPE),
  isRealDevice: queryBoolean,
  status: multi(STATUS),
  sessionType: multi(z.enum(['manual', 'automation', 'debug'])),
  nodeName: multi(z.string().max(200)),
  hubId: multi(z.string().max(200)),
  favorite: queryBoolean,
  /** true: only devices whose health is read and not healthy (held, degraded); false: only the others. */
  needsAttention: queryBoolean,
};

const ListQuery = z.object({
  ...Filters,
  ...paging,
  sortBy: z.enum(Object.keys(DEVICE_SORT_COLUMNS) as [keyof typeof DEVICE_SORT_COLUMNS, ...(keyof typeof DEVICE_SORT_COLUMNS)[]]).default('name'),
});

const Facet = z.array(z.object({ value: z.string(), count: z.number().int() }));
const FilterOptions = z.object({ platform: Facet, osVersion: Facet, model: Facet, type: Facet, status: Facet, nodeName: Facet }).meta({ id: 'DfDeviceFilterOptions' });

function filtersOf(q: Partial<Record<keyof typeof Filters, unknown>>): DeviceFilters {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(Filters)) if (q[key as keyof typeof Filters] !== undefined) out[key] = q[key as keyof typeof Filters];
  return out as DeviceFilters;
}

const tags = ['Device testing: devices'];

/** `/df/api/devices`: list, facets, one device, the caller's alias and favorite. */
export async function deviceRoutes(app: FastifyInstance, opts: { platform: Platform; devices: DeviceCommands }): Promise<void> {
  const { platform, devices } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const Params = z.object({ deviceId: idParam });
  const sharedPool = platform.config.DF_SHARED_POOL_TOKEN !== undefined;
  const caller = async (request: Parameters<typeof workspaceCaller>[0], permission: PermissionKey): Promise<DeviceScope> => ({
    ...(await workspaceCaller(request, permission)),
    sharedPool,
  });

  r.get('/api/devices', {
    schema: { tags, summary: 'List devices', querystring: ListQuery, response: { 200: pageOf(DeviceSchema) } },
    handler: async (request) => {
      const c = await caller(request, 'df:device:read');
      const q = request.query;
      return listDevices(platform.db, c, filtersOf(q), { page: q.page, size: q.size, sortBy: q.sortBy, sortDir: q.sortDir ?? 'asc' }, platform.now());
    },
  });

  r.get('/api/devices/filter-options', {
    schema: { tags, summary: 'Device counts per filter value', querystring: z.object(Filters), response: { 200: FilterOptions } },
    handler: async (request) => {
      const c = await caller(request, 'df:device:read');
      return deviceFacets(platform.db, c, filtersOf(request.query));
    },
  });

  r.get('/api/devices/:deviceId', {
    schema: { tags, summary: 'One device', params: Params, response: { 200: DeviceSchema } },
    handler: async (request) => {
      const c = await caller(request, 'df:device:read');
      return found(await findDevice(platform.db, c, request.params.deviceId, platform.now()), 'Device not found');
    },
  });

  const setPreference = async (request: { params: { deviceId: string } } & Parameters<typeof caller>[0], change: { alias?: string | null; favorite?: boolean }) => {
    const c = await caller(request, 'df:device:read');
    const device = found(await findDevice(platform.db, c, request.params.deviceId), 'Device not found');
    const context = commandContext(platform, callerActor(c));
    const result =
      change.alias !== undefined
        ? await devices.preference({ type: 'SetAlias', userId: c.userId, deviceId: device.id, alias: change.alias }, context)
        : await devices.preference({ type: 'SetFavorite', userId: c.userId, deviceId: device.id, favorite: change.favorite! }, context);
    if (result.position !== null) await platform.readModels.waitFor(result.position, { names: ['df-devices'] });
    return (await findDevice(platform.db, c, device.id, platform.now()))!;
  };

  r.put('/api/devices/:deviceId/alias', {
    schema: { tags, summary: 'Set your alias of a device', params: Params, body: z.object({ alias: z.string().trim().min(1).max(100) }), response: { 200: DeviceSchema } },
    handler: async (request) => setPreference(request, { alias: request.body.alias }),
  });
  r.delete('/api/devices/:deviceId/alias', {
    schema: { tags, summary: 'Remove your alias of a device', params: Params, response: { 200: DeviceSchema } },
    handler: async (request) => setPreference(request, { alias: null }),
  });
  r.put('/api/devices/:deviceId/favorite', {
    schema: { tags, summary: 'Mark a device as your favorite', params: Params, response: { 200: DeviceSchema } },
    handler: async (request) => setPreference(request, { favorite: true }),
  });
  r.delete('/api/devices/:deviceId/favorite', {
    schema: { tags, summary: 'Unmark a favorite device', params: Params, response: { 200: DeviceSchema } },
    handler: async (request) => setPreference(request, { favorite: false }),
  });
}
