import { appOps } from './apps.js';
import { fileOps } from './files.js';
import { healthOps } from './health.js';
import { inputOps } from './input.js';
import { inspectOps } from './inspect.js';
import { screenOps } from './screen.js';
import { stagingOps } from './staging.js';
import { testOps } from './tests.js';
import type { DeviceDriver } from '../provider.js';
import type { OpTable, SessionOp } from './types.js';

export type { Capability, CommandOf, OpContext, OpHandler, OpTable, SessionOp } from './types.js';

/**
 * Every operation of a device in session, by op: one file per family, one entry each. A new operation is
 * its wire message (`shared/wire/messages.ts`), its driver method, and a handler here
 * (docs/modules/device-testing.md, "Agent operations").
 */
export const OPS: OpTable = {
  ...screenOps,
  ...inputOps,
  ...inspectOps,
  ...appOps,
  ...stagingOps,
  ...fileOps,
  ...testOps,
  ...healthOps,
};

/** Why the device cannot run `op` (it lacks every driver method the op may use), or null when it can. */
export function missingCapability(driver: DeviceDriver, op: SessionOp): string | null {
  const needs = OPS[op].needs;
  if (!needs || needs.any.some((method) => typeof driver[method] === 'function')) return null;
  return `This device does not support ${needs.what}`;
}
