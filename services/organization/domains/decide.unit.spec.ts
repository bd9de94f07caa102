import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { domainDecider } from './decide.js';

const spec = deciderSpec(domainDecider);
const domain = 'acme.test';
const tokenA = 'a'.repeat(43);
const tokenB = 'b'.repeat(43);
const claimedA = { type: 'DomainClaimed' as const, payload: { domain, companyId: 1, token: tokenA } };
const claimedB = { type: 'DomainClaimed' as const, payload: { domain, companyId: 2, token: tokenB } };
const verifiedA = { type: 'DomainVerified' as const, payload: { domain, companyId: 1, method: 'dns-txt' as const } };

describe('e-mail domain decider', () => {
  it('lets several companies claim an unverified domain, each once', () => {
    spec.given([]).when({ type: 'ClaimDomain', domain, companyId: 1, token: tokenA }).then([claimedA]);
    spec.given([claimedA]).when({ type: 'ClaimDomain', domain, companyId: 2, token: tokenB }).then([claimedB]);
    spec.given([claimedA]).when({ type: 'ClaimDomain', domain, companyId: 1, token: tokenB }).then([]);
  });

  it('verifies for the first company with its own token; another company after it is refused DOMAIN_TAKEN', () => {
    spec.given([claimedA, claimedB]).when({ type: 'VerifyDomain', domain, companyId: 1, proof: { method: 'dns-txt', token: tokenA } }).then([verifiedA]);
    spec.given([claimedA, claimedB, verifiedA]).when({ type: 'VerifyDomain', domain, companyId: 2, proof: { method: 'dns-txt', token: tokenB } }).thenRefused('DOMAIN_TAKEN');
    spec.given([claimedA, verifiedA]).when({ type: 'ClaimDomain', domain, companyId: 2, token: tokenB }).thenRefused('DOMAIN_TAKEN');
    spec.given([claimedA, verifiedA]).when({ type: 'VerifyDomain', domain, companyId: 1, proof: { method: 'operator' } }).then([]);
  });

  it('refuses a proof made with a token the claim no longer has, and a verification without a claim', () => {
    spec.given([claimedA]).when({ type: 'VerifyDomain', domain, companyId: 1, proof: { method: 'dns-txt', token: tokenB } }).thenRefused('DOMAIN_NOT_VERIFIED');
    spec.given([claimedA]).when({ type: 'VerifyDomain', domain, companyId: 2, proof: { method: 'operator' } }).thenRefused('NOT_FOUND');
  });

  it('releases a claim; the owner releasing frees the domain for the next company to verify', () => {
    const releasedA = { type: 'DomainReleased' as const, payload: { domain, companyId: 1 } };
    spec.given([claimedA, claimedB, verifiedA]).when({ type: 'ReleaseDomain', domain, companyId: 1 }).then([releasedA]);
    spec
      .given([claimedA, claimedB, verifiedA, releasedA])
      .when({ type: 'VerifyDomain', domain, companyId: 2, proof: { method: 'dns-txt', token: tokenB } })
      .then([{ type: 'DomainVerified', payload: { domain, companyId: 2, method: 'dns-txt' } }]);
    spec.given([claimedB]).when({ type: 'ReleaseDomain', domain, companyId: 1 }).thenRefused('NOT_FOUND');
  });
});
