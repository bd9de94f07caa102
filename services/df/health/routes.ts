import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DeviceHealthRecord, HealthRules, HealthSample, MENDING_STEPS } from '#events/df/health.js';
import { AppError } from '#shared/errors.js';
import { caller, idParam } from '../http.js';
import type { HealthService } from './service.js';

const tags = ['Device testing: device health'];

const HealthRulesBody = HealthRules.meta({
  id: 'DfHealthRules',
  description: 'A company’s health thresholds: battery below `batteryMinPercent` (0–100) and not charging holds a device `charging`; battery above `temperatureMaxC` (20–80) holds it `cooling`; free storage below `storageMinMb` (0–1,000,000) makes it `degraded` and has it mended; `rebootAllowed` (a boolean, default false) lets mending reboot it before it is quarantined; after `failedSessionsMax` (0–100, default 0: off) sessions in a row failed on a device (its runner set the outcome `failed`, it could not be prepared, or it ended `device-error`, `device-reset` or `webdriver-session-failed`; a `passed` one starts the count again) it is quarantined; `fastPathDownDegrades` (a boolean, default true) makes a device whose reading says a fast path is `down` (minicap, the touch path) `degraded`, never held, and has its helpers restarted.',
});
const HealthView = z
  .object({
    deviceId: z.string(),
    health: DeviceHealthRecord.nullable(),
    samples: z.array(HealthSample.meta({ id: 'DfHealthSample' })),
    mending: z
      .array(z.object({ step: z.enum(MENDING_STEPS), attempt: z.number().int(), result: z.enum(['ok', 'failed', 'skipped']), error: z.string().optional(), at: z.string() }))
      .meta({ description: 'The newest mending steps its host ran (newest first, 20 at most): reconnecting a lost link, restarting its helpers, freeing its storage, rebooting it, each with its result' }),
    baselineRetakenAt: z.string().nullable().meta({ description: 'When an administrator last had its settings baseline re-taken (`POST /df/api/devices/{id}/baseline`); null: never, the baseline is the device as it joined' }),
  })
  .meta({ id: 'DfDeviceHealthSamples' });
const Current = z.object({ deviceId: z.string(), health: DeviceHealthRecord.nullable() });
const Baseline = z
  .object({
    deviceId: z.string(),
    settings: z.record(z.string(), z.string().nullable()).meta({ description: 'The baseline now kept: `namespace/key` → value (null: the device has no such setting, and a session that sets it has it deleted again)' }),
    at: z.string(),
  })
  .meta({ id: 'DfDeviceBaseline' });
const Params = z.object({ deviceId: idParam });
const Range = z.object({ from: z.iso.datetime({ offset: true }).optional(), to: z.iso.datetime({ offset: true }).optional() });
const MaintenanceBody = z.object({
  reason: z.string().trim().min(1).max(500),
  until: z.iso.datetime({ offset: true }).meta({ description: 'When the maintenance ends by itself; must be in the future (else 400 `MAINTENANCE_END_IN_PAST`)' }),
});

/** `/df/api/fleet/health-rules`, `/df/api/devices/{id}/health`, maintenance, quarantine release and the baseline's re-take. */
export async function healthRoutes(app: FastifyInstance, opts: { health: HealthService; sharedPool: boolean }): Promise<void> {
  const { health, sharedPool } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/fleet/health-rules', {
    schema: { tags, summary: "The company's health thresholds (the defaults until it sets its own)", response: { 200: HealthRulesBody } },
    handler: async (request) => health.rules((await caller(request, 'df:device:read')).companyId),
  });

  r.put('/api/fleet/health-rules', {
    schema: {
      tags,
      summary: "Change the company's health thresholds (audited)",
      description: 'A bound out of range (`failedSessionsMax` too: an integer 0–100), or a `rebootAllowed` or `fastPathDownDegrades` that is not a boolean, is refused with 400 `VALIDATION_FAILED` naming the field, and nothing changes.',
      body: HealthRulesBody,
      response: { 200: HealthRulesBody },
    },
    handler: async (request) => health.setRules(await caller(request, 'df:settings:manage'), request.body),
  });

  r.get('/api/devices/:deviceId/health', {
    schema: {
      tags,
      summary: "A device's health and its readings between `from` and `to` (oldest first; the newest 1,440 are kept)",
      params: Params,
      querystring: Range,
      response: { 200: HealthView },
    },
    handler: async (request) => {
      // Readable wherever the device is (the operator's shared pool too); only its own company changes it.
      const c = { ...(await caller(request, 'df:device:read')), sharedPool };
      const { from, to } = request.query;
      if (from && to && Date.parse(from) > Date.parse(to)) throw new AppError('VALIDATION_FAILED', '`from` is after `to`', { details: [{ path: 'from', message: 'must not be after to' }] });
      return health.health(c, request.params.deviceId, { from: from ? new Date(from) : undefined, to: to ? new Date(to) : undefined });
    },
  });

  r.post('/api/devices/:deviceId/maintenance', {
    schema: {
      tags,
      summary: 'Take a device into maintenance until a time (held: 409 `DEVICE_UNHEALTHY` to every allocation)',
      description: '400 `MAINTENANCE_END_IN_PAST` when `until` is not in the future; 404 for a device not of the caller’s company.',
      params: Params,
      body: MaintenanceBody,
      response: { 200: Current },
    },
    handler: async (request) => {
      const c = await caller(request, 'df:device:manage');
      return { deviceId: request.params.deviceId, health: await health.startMaintenance(c, c, request.params.deviceId, request.body) };
    },
  });

  r.delete('/api/devices/:deviceId/maintenance', {
    schema: { tags, summary: "End a device's maintenance (it comes back in the state its newest reading gives)", description: '409 `DEVICE_NOT_IN_MAINTENANCE` when it is not.', params: Params, response: { 200: Current } },
    handler: async (request) => {
      const c = await caller(request, 'df:device:manage');
      return { deviceId: request.params.deviceId, health: await health.endMaintenance(c, c, request.params.deviceId) };
    },
  });

  r.post('/api/devices/:deviceId/baseline', {
    schema: {
      tags,
      summary: "Re-take a device's settings baseline (what every session's end puts back) from its settings now (audited)",
      description:
        'The device as it is now becomes its clean state: animations, font scale, locale, time zone, brightness, stay-awake, radios and location (docs/modules/device-health.md, "A clean device for every session"). 404 for a device not of the caller’s company; 409 `DEVICE_BUSY` while a session holds it or is being set up; 409 `DEVICE_OFFLINE` while it is away; 409 `DEVICE_UNSUPPORTED` for a device whose driver keeps no baseline (browser and iOS devices).',
      params: Params,
      response: { 200: Baseline },
    },
    handler: async (request) => {
      const c = await caller(request, 'df:device:manage');
      return health.retakeBaseline(c, c, request.params.deviceId);
    },
  });

  r.post('/api/devices/:deviceId/release-quarantine', {
    schema: { tags, summary: 'Release a quarantined device (healthy until its next reading says otherwise)', description: '409 `DEVICE_NOT_QUARANTINED` when it is not.', params: Params, response: { 200: Current } },
    handler: async (request) => {
      const c = await caller(request, 'df:device:manage');
      return { deviceId: request.params.deviceId, health: await health.releaseQuarantine(c, c, request.params.deviceId) };
    },
  });
}
