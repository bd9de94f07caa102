import { describe, expect, it } from 'vitest';
import { quotaPlanDecider, sessionDefaultsDecider } from './decide.js';

const defaults = { idleTimeoutSeconds: 600, maxSessionSeconds: 3600, recordByDefault: false, recordAutomation: true, screenshotFormat: 'png' as const, videoRetentionDays: null };

describe('session defaults decider', () => {
  it('records a change, and nothing when the same defaults are set again', () => {
    const first = sessionDefaultsDecider.decide({ type: 'SetSessionDefaults', workspaceId: 2, companyId: 1, ...defaults }, sessionDefaultsDecider.initialState());
    expect(first).toEqual([{ type: 'DfSessionDefaultsSet', payload: { workspaceId: 2, companyId: 1, ...defaults } }]);
    const state = first.reduce(sessionDefaultsDecider.evolve, sessionDefaultsDecider.initialState());
    expect(sessionDefaultsDecider.decide({ type: 'SetSessionDefaults', workspaceId: 2, companyId: 1, ...defaults }, state)).toEqual([]);
    expect(sessionDefaultsDecider.decide({ type: 'SetSessionDefaults', workspaceId: 2, companyId: 1, ...defaults, recordByDefault: true }, state)).toHaveLength(1);
  });
});

describe('quota plan decider', () => {
  it('records a changed plan or limit, and nothing when unchanged (whatever the key order)', () => {
    const first = quotaPlanDecider.decide({ type: 'SetQuotaPlan', companyId: 1, plan: 'team', limits: { concurrentSessions: 3, apiKeys: 5 } }, quotaPlanDecider.initialState());
    expect(first).toHaveLength(1);
    const state = first.reduce(quotaPlanDecider.evolve, quotaPlanDecider.initialState());
    expect(quotaPlanDecider.decide({ type: 'SetQuotaPlan', companyId: 1, plan: 'team', limits: { apiKeys: 5, concurrentSessions: 3 } }, state)).toEqual([]);
    expect(quotaPlanDecider.decide({ type: 'SetQuotaPlan', companyId: 1, plan: 'team', limits: { concurrentSessions: null, apiKeys: 5 } }, state)).toHaveLength(1);
  });
});
