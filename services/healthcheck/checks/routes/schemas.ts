import { z } from 'zod';
import type { Platform } from '../../../platform.js';
import { idParam } from '../../http.js';
import type { PulseStore } from '../pulse-store.js';
import type { CheckService } from '../service.js';

/** What every route plugin of the checks feature is given. */
export interface CheckRoutesOptions {
  platform: Platform;
  checks: CheckService;
  pulses: PulseStore;
}

export const tags = ['Health checks'];
export const StatusEnum = z.enum(['new', 'up', 'down', 'paused']);
const MAX_DAYS = 30 * 86_400;

export const Check = z
  .object({
    id: z.string(),
    workspaceId: z.number(),
    name: z.string(),
    description: z.string(),
    intervalSeconds: z.number(),
    graceSeconds: z.number(),
    tags: z.array(z.string()),
    status: StatusEnum,
    statusChangedAt: z.string(),
    tokenPrefix: z.string(),
    createdBy: z.number(),
    createdAt: z.string(),
    updatedAt: z.string(),
    lastHeartbeatAt: z.string().nullable(),
    heartbeatCount: z.number(),
    dueBy: z.string().nullable(),
  })
  .meta({ id: 'HealthCheck' });

export const Heartbeat = z.object({ receivedAt: z.string(), status: z.enum(['up', 'fail']), message: z.string().nullable() });
export const Sample = z
  .object({ name: z.string(), value: z.number(), unit: z.string().nullable(), tags: z.record(z.string(), z.string()), at: z.string(), receivedAt: z.string() })
  .meta({ id: 'HealthCheckMetricSample' });
export const PushUrls = z.object({ heartbeat: z.string(), metrics: z.string() });

export const Settings = {
  name: z.string().trim().min(1).max(200),
  description: z.string().trim().max(2000),
  intervalSeconds: z.number().int().min(1).max(MAX_DAYS),
  graceSeconds: z.number().int().min(0).max(MAX_DAYS),
  tags: z.array(z.string().trim().min(1).max(50)).max(20),
};
export const Params = z.object({ checkId: idParam });
export const pushUrls = (token: string) => ({ heartbeat: `/healthcheck/api/v1/heartbeat/${token}`, metrics: `/healthcheck/api/v1/metrics/${token}` });
