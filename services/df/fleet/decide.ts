import type { FleetEvent, QuotaLimits, SessionDefaults } from '#events/df/fleet.js';
import { defineDecider } from '#shared/es/index.js';
import { sameJson } from '#shared/canonical.js';

type Of<T extends FleetEvent['type']> = Extract<FleetEvent, { type: T }>;

/** A workspace's session defaults: a change is recorded only when something differs. */
export const sessionDefaultsDecider = defineDecider<
  { type: 'SetSessionDefaults'; workspaceId: number; companyId: number } & SessionDefaults,
  Of<'DfSessionDefaultsSet'>,
  { current: SessionDefaults | null }
>({
  initialState: () => ({ current: null }),
  evolve: {
    DfSessionDefaultsSet: (_, { payload: { workspaceId: _w, companyId: _c, ...current } }) => ({ current }),
  },
  decide: {
    SetSessionDefaults: ({ type: _, ...p }, state) => {
      const { workspaceId: _w, companyId: _c, ...wanted } = p;
      if (state.current && sameJson(state.current, { ...state.current, ...wanted })) return [];
      return [{ type: 'DfSessionDefaultsSet', payload: p }];
    },
  },
});

/** A company's plan (its name and its own limits): a change is recorded only when something differs. */
export const quotaPlanDecider = defineDecider<
  { type: 'SetQuotaPlan'; companyId: number; plan: string; limits: Partial<QuotaLimits> },
  Of<'DfQuotaPlanSet'>,
  { plan: string | null; limits: Partial<QuotaLimits> }
>({
  initialState: () => ({ plan: null, limits: {} }),
  evolve: {
    DfQuotaPlanSet: (_, { payload }) => ({ plan: payload.plan, limits: payload.limits }),
  },
  decide: {
    SetQuotaPlan: ({ companyId, plan, limits }, state) => {
      const same = state.plan === plan && sameJson(sorted(state.limits), sorted(limits));
      return same ? [] : [{ type: 'DfQuotaPlanSet', payload: { companyId, plan, limits } }];
    },
  },
});

const sorted = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
