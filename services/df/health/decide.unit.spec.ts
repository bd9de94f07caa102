import { describe, expect, it } from 'vitest';
import { DEFAULT_HEALTH_RULES, HealthRules, type HealthSample } from '#events/df/health.js';
import { requireNotMending, usableDevices } from '../core/device-health.js';
import { deviceHealthDecider, endsMaintenance, healthRulesDecider, type DeviceHealthCommand, type DeviceHealthState } from './decide.js';
import { evaluate } from './rules.js';
import { mendingWanted } from './mending.js';

const rules = { batteryMinPercent: 20, temperatureMaxC: 40, storageMinMb: 500, rebootAllowed: false, failedSessionsMax: 0, fastPathDownDegrades: true };
const tenant = { companyId: 1, workspaceIds: null };
const reading = (over: Partial<HealthSample> = {}, battery: Partial<NonNullable<HealthSample['battery']>> = {}): HealthSample => ({
  checkedAt: '2026-01-01T00:00:00.000Z',
  battery: { level: 80, charging: false, temperatureC: 30, health: 'good', ...battery },
  storageFreeMb: 4_000,
  ...over,
});

/** Given commands run one after the other from the initial state, the state they leave and the events each made. */
function given(...commands: DeviceHealthCommand[]): { state: DeviceHealthState; events: ReturnType<typeof deviceHealthDecider.decide>[] } {
  let state = deviceHealthDecider.initialState();
  const events = [];
  for (const c of commands) {
    const made = deviceHealthDecider.decide(c, state);
    events.push(made);
    state = made.reduce(deviceHealthDecider.evolve, state);
  }
  return { state, events };
}
const sample = (s: HealthSample): DeviceHealthCommand => ({ type: 'RecordHealthSample', deviceId: 'd1', sample: s, rules, ...tenant });

describe('the health rule', () => {
  it('holds a hot device cooling, naming the temperature and the limit, and releases it only 3 °C below the limit', () => {
    expect(evaluate(reading({}, { temperatureC: 41.5 }), rules, 'healthy')).toEqual({ state: 'cooling', reasons: ['battery temperature 41.5 °C above 40 °C'] });
    expect(evaluate(reading({}, { temperatureC: 38 }), rules, 'cooling').state).toBe('cooling');
    expect(evaluate(reading({}, { temperatureC: 36.5 }), rules, 'cooling')).toEqual({ state: 'healthy', reasons: [] });
  });

  it('holds a low battery that is not charging, and lets it go once it charges', () => {
    expect(evaluate(reading({}, { level: 10 }), rules, 'healthy')).toEqual({ state: 'charging', reasons: ['battery 10 % below 20 % and not charging'] });
    expect(evaluate(reading({}, { level: 10, charging: true }), rules, 'charging')).toEqual({ state: 'healthy', reasons: [] });
  });

  it('puts cooling before charging and keeps every reason; low storage and airplane mode only degrade', () => {
    expect(evaluate(reading({ storageFreeMb: 100 }, { level: 5, temperatureC: 50 }), rules, null)).toEqual({
      state: 'cooling',
      reasons: ['battery temperature 50.0 °C above 40 °C', 'battery 5 % below 20 % and not charging', 'storage 100 MB free below 500 MB'],
    });
    expect(evaluate(reading({ storageFreeMb: 100, airplaneMode: true }), rules, null)).toEqual({ state: 'degraded', reasons: ['storage 100 MB free below 500 MB', 'airplane mode on'] });
  });

  it('degrades a device whose fast path is down, naming the path and why, never holds it, and judges neither an unavailable path nor one the rules leave alone', () => {
    const down = reading({ fastPaths: { screen: { state: 'down', reason: 'minicap apk: Segmentation fault' }, touch: { state: 'up' } } });
    expect(evaluate(down, rules, 'healthy')).toEqual({ state: 'degraded', reasons: ['screen fast path down: minicap apk: Segmentation fault'] });
    expect(evaluate(reading({ fastPaths: { screen: { state: 'down' }, touch: { state: 'down', reason: 'minitouch stopped' } } }), rules, 'healthy').reasons).toEqual(['screen fast path down', 'touch fast path down: minitouch stopped']);
    // Behind the held states, with the other warnings.
    expect(evaluate({ ...down, storageFreeMb: 100 }, rules, 'healthy').reasons).toEqual(['storage 100 MB free below 500 MB', 'screen fast path down: minicap apk: Segmentation fault']);
    expect(evaluate({ ...down, battery: { level: 5, charging: false } }, rules, 'healthy').state).toBe('charging');
    // Up again: healthy.
    expect(evaluate(reading({ fastPaths: { screen: { state: 'up' } } }), rules, 'degraded')).toEqual({ state: 'healthy', reasons: [] });
    const unavailable = reading({ fastPaths: { screen: { state: 'unavailable', reason: 'no minicap for ABI mips and SDK 30' }, touch: { state: 'unavailable' } } });
    expect(evaluate(unavailable, rules, 'healthy')).toEqual({ state: 'healthy', reasons: [] });
    expect(evaluate(down, { ...rules, fastPathDownDegrades: false }, 'healthy')).toEqual({ state: 'healthy', reasons: [] });
  });

  it('asks for mending: every step for short storage, only the helpers for a fast path down, nothing for an unavailable path or one the rules leave alone', () => {
    const down = { screen: { state: 'down' as const, reason: 'minicap stopped' } };
    expect(mendingWanted(reading({ fastPaths: down }), rules)).toEqual({ helpersOnly: true });
    expect(mendingWanted(reading({ fastPaths: down, storageFreeMb: 100 }), rules)).toEqual({ helpersOnly: false });
    expect(mendingWanted(reading({ storageFreeMb: 100 }), { ...rules, fastPathDownDegrades: false })).toEqual({ helpersOnly: false });
    expect(mendingWanted(reading({ fastPaths: down }), { ...rules, fastPathDownDegrades: false })).toBeNull();
    expect(mendingWanted(reading({ fastPaths: { screen: { state: 'unavailable' }, touch: { state: 'up' } } }), rules)).toBeNull();
    expect(mendingWanted(reading(), rules)).toBeNull();
  });

  it('quarantines a failed battery, and keeps a quarantined device so whatever it reads', () => {
    expect(evaluate(reading({}, { health: 'dead' }), rules, 'healthy').state).toBe('quarantined');
    expect(evaluate(reading(), rules, 'quarantined').state).toBe('quarantined');
  });
});

describe('device health decider', () => {
  it('moves a healthy device to degraded while its screen fast path is down, once, and back to healthy when it is up again', () => {
    const down = reading({ fastPaths: { screen: { state: 'down', reason: 'minicap exited' } } });
    const { state, events } = given(sample(reading()), sample(down), sample(down), sample(reading({ fastPaths: { screen: { state: 'up' } } })));
    expect(events.map((e) => e.map((x) => (x.type === 'DeviceHealthChanged' ? `${x.payload.from}→${x.payload.health.state}` : x.type)))).toEqual([['null→healthy'], ['healthy→degraded'], [], ['degraded→healthy']]);
    expect(events[1]![0]!.payload).toMatchObject({ cause: 'sample', health: { reasons: ['screen fast path down: minicap exited'] } });
    expect(state.health?.state).toBe('healthy');
  });

  it('records the first reading, then only changes of state or reasons', () => {
    const { events } = given(sample(reading()), sample(reading({}, { level: 70 })), sample(reading({}, { temperatureC: 45 })), sample(reading({}, { temperatureC: 46 })));
    expect(events.map((e) => e.map((x) => (x.type === 'DeviceHealthChanged' ? `${x.payload.from}→${x.payload.health.state}` : x.type)))).toEqual([['null→healthy'], [], ['healthy→cooling'], ['cooling→cooling']]);
  });

  it('records each mending step; three failed in a row quarantine the device (mending-failed), a step that works starts the count again', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const step = (attempt: number, result: 'ok' | 'failed'): DeviceHealthCommand => ({ type: 'RecordMendingStep', deviceId: 'd1', step: { step: 'reconnect', attempt, result, ...(result === 'failed' ? { error: 'connection refused' } : {}), at }, at, ...tenant });
    const types = (e: ReturnType<typeof deviceHealthDecider.decide>[]) => e.map((x) => x.map((y) => (y.type === 'DeviceHealthChanged' ? `${y.payload.cause}:${y.payload.health.state}` : y.type === 'DeviceMendingStep' ? `${y.payload.step}:${y.payload.result}` : y.type)));
    const mended = given(sample(reading()), step(1, 'failed'), step(2, 'failed'), step(3, 'ok'), step(1, 'failed'), step(2, 'failed'));
    expect(types(mended.events).flat()).toEqual(['sample:healthy', 'reconnect:failed', 'reconnect:failed', 'reconnect:ok', 'reconnect:failed', 'reconnect:failed']);
    expect(mended.state.health?.state).toBe('healthy');
    const failed = given(sample(reading()), step(1, 'failed'), step(2, 'failed'), step(3, 'failed'), step(4, 'failed'));
    expect(types(failed.events)).toEqual([['sample:healthy'], ['reconnect:failed'], ['reconnect:failed'], ['reconnect:failed', 'mending-failed:quarantined'], ['reconnect:failed']]);
    expect(failed.state.health).toMatchObject({ state: 'quarantined', reasons: ['mending failed 3 steps in a row, the last reconnect (attempt 3): connection refused'] });
  });

  it('quarantines a device mending could not mend even when fewer than three steps failed, and leaves a standing quarantine as it is', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const step = (name: 'restart-helpers' | 'free-storage' | 'reboot', result: 'ok' | 'failed' | 'skipped'): DeviceHealthCommand => ({ type: 'RecordMendingStep', deviceId: 'd1', step: { step: name, attempt: 1, result, at }, at, ...tenant });
    const exhausted: DeviceHealthCommand = { type: 'QuarantineAfterMending', deviceId: 'd1', reason: 'storage 100 MB free below 500 MB, the last step reboot skipped', at, ...tenant };
    const { state, events } = given(sample(reading()), step('restart-helpers', 'ok'), step('free-storage', 'failed'), step('reboot', 'skipped'), exhausted);
    expect(state.health).toMatchObject({ state: 'quarantined', reasons: ['mending did not mend it: storage 100 MB free below 500 MB, the last step reboot skipped'] });
    expect(events[4]![0]!.payload).toMatchObject({ from: 'healthy', cause: 'mending-failed' });
    // Three failed steps quarantined it already: the end of the mending adds nothing.
    const three = given(sample(reading()), step('restart-helpers', 'failed'), step('free-storage', 'failed'), step('reboot', 'failed'), exhausted);
    expect(three.state.health?.reasons[0]).toMatch(/^mending failed 3 steps in a row, the last reboot/);
    expect(three.events[4]).toEqual([]);
  });

  it('holds maintenance against readings, refuses an end time in the past, and ends it into the state the newest reading gives', () => {
    const at = '2026-01-01T00:00:00.000Z';
    expect(() => given({ type: 'StartMaintenance', deviceId: 'd1', reason: 'swap cable', until: '2025-12-31T00:00:00.000Z', at, ...tenant })).toThrow(expect.objectContaining({ code: 'MAINTENANCE_END_IN_PAST' }));
    const { state, events } = given(sample(reading()), { type: 'StartMaintenance', deviceId: 'd1', reason: 'swap cable', until: '2026-01-02T00:00:00.000Z', at, ...tenant }, sample(reading({}, { temperatureC: 50 })));
    expect(state.health).toMatchObject({ state: 'maintenance', reasons: ['maintenance until 2026-01-02T00:00:00.000Z: swap cable'] });
    expect(events[2]).toEqual([]);
    const ended = deviceHealthDecider.decide({ type: 'EndMaintenance', deviceId: 'd1', by: 'administrator', latest: reading({}, { temperatureC: 50 }), rules, at, ...tenant }, state);
    expect(ended[0]!.payload).toMatchObject({ from: 'maintenance', cause: 'maintenance-ended', health: { state: 'cooling' } });
    expect(() => deviceHealthDecider.decide({ type: 'EndMaintenance', deviceId: 'd1', by: 'administrator', latest: null, rules, at, ...tenant }, deviceHealthDecider.initialState())).toThrow(expect.objectContaining({ code: 'DEVICE_NOT_IN_MAINTENANCE' }));
  });

  it('ends a maintenance by its end or by any quarantine taking its place — what lifts its bookings’ warnings — and by nothing else', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const start: DeviceHealthCommand = { type: 'StartMaintenance', deviceId: 'd1', reason: 'swap cable', until: '2026-01-02T00:00:00.000Z', at, ...tenant };
    const failedStep = (attempt: number): DeviceHealthCommand => ({ type: 'RecordMendingStep', deviceId: 'd1', step: { step: 'reconnect', attempt, result: 'failed', error: 'refused', at }, at, ...tenant });
    const quarantines: DeviceHealthCommand[] = [
      { type: 'QuarantineAfterFailedReset', deviceId: 'd1', reason: 'wipe failed', at, ...tenant },
      { type: 'QuarantineAfterFailedSessions', deviceId: 'd1', reason: '3 sessions in a row failed', at, ...tenant },
      { type: 'QuarantineAfterMending', deviceId: 'd1', reason: 'still unwell', at, ...tenant },
    ];
    for (const quarantine of quarantines) {
      const { state, events } = given(sample(reading()), start, quarantine);
      expect(state, quarantine.type).toMatchObject({ health: { state: 'quarantined' }, maintenance: null });
      expect(state.health?.until, quarantine.type).toBeUndefined();
      expect(events[2]![0]!.payload, quarantine.type).toMatchObject({ from: 'maintenance' });
      expect(endsMaintenance(events[2]!), quarantine.type).toBe(true);
      // The same quarantine of a device not in maintenance ends none.
      expect(endsMaintenance(given(sample(reading()), quarantine).events[1]!), quarantine.type).toBe(false);
    }
    const mended = given(sample(reading()), start, failedStep(1), failedStep(2), failedStep(3));
    expect(mended.state.health?.state).toBe('quarantined');
    expect(mended.events.slice(2, 4).map(endsMaintenance)).toEqual([false, false]);
    expect(endsMaintenance(mended.events[4]!)).toBe(true);
    const held = given(sample(reading()), start);
    expect(endsMaintenance(held.events[1]!)).toBe(false);
    expect(endsMaintenance(deviceHealthDecider.decide({ type: 'EndMaintenance', deviceId: 'd1', by: 'end-time', latest: reading(), rules, at, ...tenant }, held.state))).toBe(true);
    // Changed while under way, or read meanwhile: it goes on.
    expect(endsMaintenance(deviceHealthDecider.decide({ ...start, reason: 'new cable' } as DeviceHealthCommand, held.state))).toBe(false);
    expect(endsMaintenance(deviceHealthDecider.decide(sample(reading({}, { temperatureC: 50 })), held.state))).toBe(false);
  });

  it('records a re-taken baseline with what it holds, whatever the device’s health, and changes nothing of its health', () => {
    const retaken: DeviceHealthCommand = { type: 'RecordBaselineRetaken', deviceId: 'd1', settings: { 'system/font_scale': '1.0', 'global/time_zone': null }, at: '2026-01-01T00:00:00.000Z', ...tenant };
    const { state, events } = given(sample(reading({}, { temperatureC: 50 })), retaken, retaken);
    expect(events[1]).toEqual([{ type: 'DeviceBaselineRetaken', payload: { deviceId: 'd1', ...tenant, settings: { 'system/font_scale': '1.0', 'global/time_zone': null }, at: '2026-01-01T00:00:00.000Z' } }]);
    // Each re-take is its own record (who asked, when).
    expect(events[2]).toHaveLength(1);
    expect(state.health?.state).toBe('cooling');
  });

  it('releases a quarantined device only by an administrator', () => {
    const { state, events } = given(sample(reading({}, { health: 'dead' })), sample(reading()));
    expect(events[1]).toEqual([]);
    const released = deviceHealthDecider.decide({ type: 'ReleaseQuarantine', deviceId: 'd1', at: '2026-01-01T00:00:00.000Z', ...tenant }, state);
    expect(released[0]!.payload).toMatchObject({ from: 'quarantined', cause: 'quarantine-released', health: { state: 'healthy', reasons: [] } });
    expect(() => deviceHealthDecider.decide({ type: 'ReleaseQuarantine', deviceId: 'd1', at: '2026-01-01T00:00:00.000Z', ...tenant }, deviceHealthDecider.initialState())).toThrow(expect.objectContaining({ code: 'DEVICE_NOT_QUARANTINED' }));
  });
});

describe('health rules decider', () => {
  it('records changed rules and nothing when the same are set again', () => {
    const first = healthRulesDecider.decide({ type: 'SetHealthRules', companyId: 1, rules: DEFAULT_HEALTH_RULES }, healthRulesDecider.initialState());
    expect(first).toEqual([{ type: 'DfHealthRulesSet', payload: { companyId: 1, ...DEFAULT_HEALTH_RULES } }]);
    const state = first.reduce(healthRulesDecider.evolve, healthRulesDecider.initialState());
    expect(healthRulesDecider.decide({ type: 'SetHealthRules', companyId: 1, rules: { ...DEFAULT_HEALTH_RULES } }, state)).toEqual([]);
  });

  it('reads rules recorded before rebootAllowed existed as allowing no reboot, and before failedSessionsMax as quarantining for no failed session', () => {
    const old = { type: 'DfHealthRulesSet', payload: { companyId: 1, batteryMinPercent: 20, temperatureMaxC: 40, storageMinMb: 500 } } as unknown as Parameters<typeof healthRulesDecider.evolve>[1];
    expect(healthRulesDecider.evolve(healthRulesDecider.initialState(), old).rules).toEqual({ batteryMinPercent: 20, temperatureMaxC: 40, storageMinMb: 500, rebootAllowed: false, failedSessionsMax: 0, fastPathDownDegrades: true });
    const withReboot = { type: 'DfHealthRulesSet', payload: { companyId: 1, batteryMinPercent: 20, temperatureMaxC: 40, storageMinMb: 500, rebootAllowed: true } } as unknown as Parameters<typeof healthRulesDecider.evolve>[1];
    const state = healthRulesDecider.evolve(healthRulesDecider.initialState(), withReboot);
    expect(state.rules).toEqual({ batteryMinPercent: 20, temperatureMaxC: 40, storageMinMb: 500, rebootAllowed: true, failedSessionsMax: 0, fastPathDownDegrades: true });
    // The same rules set again with the new field at its default change nothing.
    expect(healthRulesDecider.decide({ type: 'SetHealthRules', companyId: 1, rules: { ...state.rules!, failedSessionsMax: 0, fastPathDownDegrades: true } }, state)).toEqual([]);
  });

  it('takes fastPathDownDegrades as a boolean, true when left out; anything else is refused naming the field', () => {
    const base = { batteryMinPercent: 20, temperatureMaxC: 40, storageMinMb: 500 };
    expect(HealthRules.parse(base).fastPathDownDegrades).toBe(true);
    expect(HealthRules.parse({ ...base, fastPathDownDegrades: false }).fastPathDownDegrades).toBe(false);
    for (const bad of ['false', 0, null]) {
      const r = HealthRules.safeParse({ ...base, fastPathDownDegrades: bad });
      expect(r.success, String(bad)).toBe(false);
      expect(r.error!.issues[0]!.path).toEqual(['fastPathDownDegrades']);
    }
  });

  it('takes failedSessionsMax 0–100 and defaults it to 0 (off); out of range or not an integer is refused naming the field', () => {
    const base = { batteryMinPercent: 20, temperatureMaxC: 40, storageMinMb: 500, rebootAllowed: false };
    expect(HealthRules.parse(base).failedSessionsMax).toBe(0);
    expect(HealthRules.parse({ ...base, failedSessionsMax: 3 }).failedSessionsMax).toBe(3);
    for (const bad of [-1, 101, 2.5, '3']) {
      const r = HealthRules.safeParse({ ...base, failedSessionsMax: bad });
      expect(r.success, String(bad)).toBe(false);
      expect(r.error!.issues[0]!.path).toEqual(['failedSessionsMax']);
    }
  });
});

describe('allocation skips held devices', () => {
  const hot = { id: 'a', name: 'Hot', health: { state: 'cooling' as const, reasons: ['battery temperature 50.0 °C above 40 °C'], checkedAt: '' } };
  const fine = { id: 'b', name: 'Fine', health: { state: 'degraded' as const, reasons: ['airplane mode on'], checkedAt: '' } };
  it('keeps the usable ones, and when only held ones match refuses with DEVICE_UNHEALTHY naming the reason', () => {
    expect(usableDevices([hot, fine, { id: 'c', health: null }]).map((d) => d.id)).toEqual(['b', 'c']);
    expect(usableDevices([])).toEqual([]);
    expect(() => usableDevices([hot])).toThrow(expect.objectContaining({ code: 'DEVICE_UNHEALTHY', message: 'Device Hot is held by its health (cooling: battery temperature 50.0 °C above 40 °C)' }));
  });
});

describe('a mending under way', () => {
  const T0 = '2026-01-01T00:00:00.000Z';
  const UNTIL = '2026-01-01T00:05:05.000Z';
  const start = (at = T0, until = UNTIL): DeviceHealthCommand => ({ type: 'StartMending', deviceId: 'd1', helpersOnly: false, at, until, ...tenant });
  const begin = (step: 'reboot' | 'free-storage', at = '2026-01-01T00:00:10.000Z'): DeviceHealthCommand => ({ type: 'BeginMendingStep', deviceId: 'd1', step, at, ...tenant });
  const end = (at: string, over?: boolean): DeviceHealthCommand => ({ type: 'EndMending', deviceId: 'd1', outcome: over ? 'timed-out' : 'mended', at, ...(over ? { overOnly: true } : {}), ...tenant });
  const types = (events: { type: string }[]) => events.map((e) => e.type);

  it('is started, shows the step begun last, and is over at its end; the health state is untouched', () => {
    const { state, events } = given(sample(reading({ storageFreeMb: 100 })), start(), begin('free-storage'), begin('reboot'));
    expect(types(events[1]!)).toEqual(['DeviceMendingStarted']);
    expect(state.mending).toEqual({ since: T0, until: UNTIL, step: 'reboot' });
    expect(state.health?.state).toBe('degraded');
    const ended = deviceHealthDecider.decide(end('2026-01-01T00:01:00.000Z'), state);
    expect(ended).toEqual([{ type: 'DeviceMendingEnded', payload: { deviceId: 'd1', ...tenant, outcome: 'mended', at: '2026-01-01T00:01:00.000Z' } }]);
    expect(ended.reduce(deviceHealthDecider.evolve, state).mending).toBeNull();
  });

  it('is not started twice while one is under way, and a step or an end without one under way records nothing', () => {
    const { events } = given(start(), start('2026-01-01T00:01:00.000Z'));
    expect(events[1]).toEqual([]);
    expect(given(begin('reboot')).events[0]).toEqual([]);
    expect(given(end('2026-01-01T00:01:00.000Z')).events[0]).toEqual([]);
  });

  it('whose asker never recorded its end is over at its until: the sweep ends it then and not before, and a new start ends it first', () => {
    expect(given(start(), end('2026-01-01T00:05:00.000Z', true)).events[1]).toEqual([]);
    expect(types(given(start(), end(UNTIL, true)).events[1]!)).toEqual(['DeviceMendingEnded']);
    const again = given(start(), start('2026-01-01T00:06:00.000Z', '2026-01-01T00:11:05.000Z'));
    expect(again.events[1]!.map((e) => [e.type, (e.payload as { outcome?: string }).outcome ?? null, (e.payload as { at: string }).at])).toEqual([
      ['DeviceMendingEnded', 'timed-out', UNTIL],
      ['DeviceMendingStarted', null, '2026-01-01T00:06:00.000Z'],
    ]);
    expect(again.state.mending?.since).toBe('2026-01-01T00:06:00.000Z');
  });

  it('refuses a device being mended with DEVICE_MENDING naming the step, and not once its until passed', () => {
    const device = { id: 'd1', name: 'Pixel', health: null, mending: { since: T0, until: UNTIL, step: 'reboot' as const } };
    let refusal: unknown;
    try {
      requireNotMending(device, new Date('2026-01-01T00:01:00.000Z'));
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toMatchObject({ code: 'DEVICE_MENDING', message: expect.stringContaining('being mended (rebooting)'), details: [{ step: 'reboot', until: UNTIL }] });
    expect(() => requireNotMending(device, new Date(UNTIL))).not.toThrow();
    expect(() => requireNotMending({ ...device, mending: null })).not.toThrow();
  });
});
