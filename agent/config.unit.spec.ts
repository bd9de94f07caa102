import { describe, expect, it } from 'vitest';
import { loadAgentConfig } from './config.js';

describe('the agent config: how long mending waits for a rebooted Android device', () => {
  it('is 3 minutes unless set, the file’s value otherwise, and AGENT_REBOOT_WAIT’s over it', () => {
    expect(loadAgentConfig({ value: { hostId: 'h', android: {} } }).android?.rebootWaitMs).toBe(180_000);
    expect(loadAgentConfig({ value: { hostId: 'h', android: { rebootWaitMs: 60_000 } } }).android?.rebootWaitMs).toBe(60_000);
    expect(loadAgentConfig({ value: { hostId: 'h', android: { rebootWaitMs: 60_000 } }, rebootWaitMs: 20_000 }).android?.rebootWaitMs).toBe(20_000);
    // No Android section: nothing to wait for, and none is made up.
    expect(loadAgentConfig({ value: { hostId: 'h' }, rebootWaitMs: 20_000 }).android).toBeUndefined();
  });

  it('refuses a wait under 1 s or over 4 minutes, naming the field', () => {
    for (const bad of [999, 240_001, 1.5]) expect(() => loadAgentConfig({ value: { hostId: 'h', android: { rebootWaitMs: bad } } })).toThrow(/android\.rebootWaitMs/);
    expect(() => loadAgentConfig({ value: { hostId: 'h', android: {} }, rebootWaitMs: 500 })).toThrow(/android\.rebootWaitMs/);
  });
});
