import type { DomainEvent } from '#events/organization/domains.js';
import type { Decider } from '#shared/es/decider.js';
import { AppError } from '#shared/errors.js';
import { unreachable } from '#shared/unreachable.js';

/** How a company proves a domain: the TXT record it published with the token it holds, or an operator's word. */
export type DomainProof = { method: 'dns-txt'; token: string } | { method: 'operator' };

export type DomainCommand =
  | { type: 'ClaimDomain'; domain: string; companyId: number; token: string }
  | { type: 'VerifyDomain'; domain: string; companyId: number; proof: DomainProof }
  | { type: 'ReleaseDomain'; domain: string; companyId: number };

/** One e-mail domain: the token of each company that claims it, and the company that verified it (its owner). */
export interface DomainState {
  claims: Readonly<Record<number, string>>;
  owner: number | null;
}

const taken = (domain: string) => new AppError('DOMAIN_TAKEN', `${domain} is verified by another company`);

/**
 * An e-mail domain across companies, one stream per domain so that "verified by company X" is decided in
 * one place: claims by several companies, a verification by at most one (the first whose append lands;
 * a second, racing, is loaded again and refused), released by its claimant.
 */
export const domainDecider: Decider<DomainCommand, DomainEvent, DomainState> = {
  initialState: () => ({ claims: {}, owner: null }),
  evolve(state, event) {
    switch (event.type) {
      case 'DomainClaimed':
        return { ...state, claims: { ...state.claims, [event.payload.companyId]: event.payload.token } };
      case 'DomainVerified':
        return { ...state, owner: event.payload.companyId };
      case 'DomainReleased': {
        const { [event.payload.companyId]: _released, ...claims } = state.claims;
        return { claims, owner: state.owner === event.payload.companyId ? null : state.owner };
      }
      default:
        return unreachable(event);
    }
  },
  decide(command, state) {
    const { domain, companyId } = command;
    const claimed = state.claims[companyId];
    switch (command.type) {
      case 'ClaimDomain':
        if (state.owner !== null && state.owner !== companyId) throw taken(domain);
        return claimed === undefined ? [{ type: 'DomainClaimed', payload: { domain, companyId, token: command.token } }] : [];
      case 'VerifyDomain':
        if (claimed === undefined) throw new AppError('NOT_FOUND', 'Domain not found');
        if (state.owner === companyId) return [];
        if (state.owner !== null) throw taken(domain);
        // The record was read for the claim as it was; a claim released and made again since has another token.
        if (command.proof.method === 'dns-txt' && command.proof.token !== claimed) throw new AppError('DOMAIN_NOT_VERIFIED', `The claim on ${domain} changed while it was checked; verify again`);
        return [{ type: 'DomainVerified', payload: { domain, companyId, method: command.proof.method } }];
      case 'ReleaseDomain':
        if (claimed === undefined) throw new AppError('NOT_FOUND', 'Domain not found');
        return [{ type: 'DomainReleased', payload: { domain, companyId } }];
      default:
        return unreachable(command);
    }
  },
};
