import { AppError } from '#shared/errors.js';
import { defineDecider } from '#shared/es/index.js';
import type { CompanyEvent } from '#events/organization/companies.js';

export type CompanyCommand = { type: 'RegisterCompany'; companyId: number; name: string };

export type CompanyState = { status: 'none' } | { status: 'registered'; companyId: number; name: string };

export const companyDecider = defineDecider<CompanyCommand, CompanyEvent, CompanyState>({
  initialState: () => ({ status: 'none' }),
  evolve: {
    CompanyRegistered: (state, event) => ({ status: 'registered', companyId: event.payload.companyId, name: event.payload.name }),
  },
  decide: {
    RegisterCompany: (command, state) => {
      if (state.status !== 'none') throw new AppError('ALREADY_EXISTS', 'Company already exists');
      return [{ type: 'CompanyRegistered', payload: { companyId: command.companyId, name: command.name } }];
    },
  },
});
