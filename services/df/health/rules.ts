import type { DeviceHealthRecord, HealthRules, HealthSample, HealthState } from '#events/df/health.js';

/** How far below the temperature limit a cooling device must come before it is released (no flapping at the limit). */
export const COOLING_MARGIN_C = 3;
/** Android's thermal status from which a device is held to cool (`THERMAL_STATUS_SEVERE`). */
const THERMAL_SEVERE = 3;
/** Battery health words that take a device out of use until an administrator releases it (a swelling or failing battery). */
const FAILED_BATTERY = ['dead', 'over_voltage', 'failure'] as const;

/** The state a reading gives and why. */
export interface Verdict {
  state: Exclude<HealthState, 'maintenance'>;
  reasons: string[];
}

/**
 * The pure rule: a reading, the company's rules and the state the device is in now → its state and the
 * reasons for it. Held states come first in this order: quarantined (a failed battery), cooling (hot
 * battery or a severe thermal status; released only `COOLING_MARGIN_C` below the limit), charging (low
 * battery not charging; released once it charges or is above the limit); then degraded (low storage,
 * airplane mode on, a fast path down where the rules say so — never held: the slow path still works; a
 * path the device cannot have, `unavailable`, is never judged); else healthy. A quarantined device stays so whatever it reads: only an
 * administrator's release ends it. Maintenance is an administrator's and never comes from a reading.
 */
export function evaluate(sample: HealthSample, rules: HealthRules, current: HealthState | null): Verdict {
  if (current === 'quarantined') return { state: 'quarantined', reasons: ['quarantined until an administrator releases it'] };
  const held: { state: Verdict['state']; reason: string }[] = [];
  const warned: string[] = [];
  const b = sample.battery;
  if (b?.health && (FAILED_BATTERY as readonly string[]).includes(b.health)) held.push({ state: 'quarantined', reason: `battery health ${b.health}` });
  const limit = current === 'cooling' ? rules.temperatureMaxC - COOLING_MARGIN_C : rules.temperatureMaxC;
  if (b?.temperatureC !== undefined && b.temperatureC > limit) {
    held.push({ state: 'cooling', reason: `battery temperature ${b.temperatureC.toFixed(1)} °C above ${limit} °C` });
  }
  if (sample.thermalStatus !== undefined && sample.thermalStatus >= THERMAL_SEVERE) held.push({ state: 'cooling', reason: `thermal status ${sample.thermalStatus} (severe or worse)` });
  if (b && !b.charging && b.level < rules.batteryMinPercent) held.push({ state: 'charging', reason: `battery ${b.level} % below ${rules.batteryMinPercent} % and not charging` });
  if (sample.storageFreeMb !== undefined && sample.storageFreeMb < rules.storageMinMb) warned.push(`storage ${sample.storageFreeMb} MB free below ${rules.storageMinMb} MB`);
  if (sample.airplaneMode) warned.push('airplane mode on');
  if (rules.fastPathDownDegrades) warned.push(...fastPathsDown(sample).map((p) => `${p.path} fast path down${p.reason ? `: ${p.reason}` : ''}`));
  const order: Verdict['state'][] = ['quarantined', 'cooling', 'charging'];
  const first = order.find((s) => held.some((h) => h.state === s));
  if (first) return { state: first, reasons: [...held.map((h) => h.reason), ...warned] };
  return warned.length > 0 ? { state: 'degraded', reasons: warned } : { state: 'healthy', reasons: [] };
}

/** The fast paths a reading says are down (`unavailable` ones are not: the device cannot have them), each with why. */
export function fastPathsDown(sample: HealthSample): { path: 'screen' | 'touch'; reason?: string }[] {
  const down: { path: 'screen' | 'touch'; reason?: string }[] = [];
  for (const path of ['screen', 'touch'] as const) {
    const p = sample.fastPaths?.[path];
    if (p?.state === 'down') down.push({ path, ...(p.reason ? { reason: p.reason } : {}) });
  }
  return down;
}

/** The health a device record shows after a reading. */
export function recordOf(verdict: { state: HealthState; reasons: string[] }, sample: HealthSample | null, at: string): DeviceHealthRecord {
  const b = sample?.battery;
  return {
    state: verdict.state,
    reasons: verdict.reasons,
    ...(b ? { battery: { level: b.level, charging: b.charging, ...(b.temperatureC !== undefined ? { temperatureC: b.temperatureC } : {}) } } : {}),
    ...(sample?.storageFreeMb !== undefined ? { storageFreeMb: sample.storageFreeMb } : {}),
    checkedAt: sample?.checkedAt ?? at,
  };
}
