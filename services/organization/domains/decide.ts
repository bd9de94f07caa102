import type { DomainEvent } from '#events/organization/domains.js';
import { defineDecider } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';

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
export const domainDecider = defineDecider<DomainCommand, DomainEvent, DomainState>({
  initialState: () => ({ claims: {}, owner: null }),
  evolve: {
    DomainClaimed: (state, event) => ({ ...state, claims: { ...state.claims, [event.payload.companyId]: event.payload.token } }),
    DomainVerified: (state, event) => ({ ...state, owner: event.payload.companyId }),
    DomainReleased: (state, event) => {
      const { [event.payload.companyId]: _released, ...claims } = state.claims;
      return { claims, owner: state.owner === event.payload.companyId ? null : state.owner };
    },
  },
  decide: {
    ClaimDomain: ({ domain, companyId, token }, state) => {
      if (state.owner !== null && state.owner !== companyId) throw taken(domain);
      return state.claims[companyId] === undefined ? [{ type: 'DomainClaimed', payload: { domain, companyId, token } }] : [];
    },
    VerifyDomain: ({ domain, companyId, proof }, state) => {
      const claimed = state.claims[companyId];
      if (claimed === undefined) throw new AppError('NOT_FOUND', 'Domain not found');
      if (state.owner === companyId) return [];
      if (state.owner !== null) throw taken(domain);
      // The record was read for the claim as it was; a claim released and made again since has another token.
      if (proof.method === 'dns-txt' && proof.token !== claimed) throw new AppError('DOMAIN_NOT_VERIFIED', `The claim on ${domain} changed while it was checked; verify again`);
      return [{ type: 'DomainVerified', payload: { domain, companyId, method: proof.method } }];
    },
    ReleaseDomain: ({ domain, companyId }, state) => {
      if (state.claims[companyId] === undefined) throw new AppError('NOT_FOUND', 'Domain not found');
      return [{ type: 'DomainReleased', payload: { domain, companyId } }];
    },
  },
});
