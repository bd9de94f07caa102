import { AppError } from '#shared/errors.js';
import type { Decider } from '#shared/es/decider.js';
import type { CompanyEvent } from '#events/organization/companies.js';
import { unreachable } from '#shared/unreachable.js';

export type CompanyCommand = { type: 'RegisterCompany'; companyId: number; name: string };

export type CompanyState = { status: 'none' } | { status: 'registered'; companyId: number; name: string };

export const companyDecider: Decider<CompanyCommand, CompanyEvent, CompanyState> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'CompanyRegistered':
        return { status: 'registered', companyId: event.payload.companyId, name: event.payload.name };
      default:
        return unreachable(event.type);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'RegisterCompany':
        if (state.status !== 'none') throw new AppError('ALREADY_EXISTS', 'Company already exists');
        return [{ type: 'CompanyRegistered', payload: { companyId: command.companyId, name: command.name } }];
      default:
        return unreachable(command.type);
    }
  },
};
