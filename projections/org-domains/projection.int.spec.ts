import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, type ProjectionSpec } from '../testing.js';
import { orgDomainsProjection } from './projection.js';
import { domainOwner, emailDomain, getDomain, listDomains } from './queries.js';

let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(orgDomainsProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

const token = (c: string) => c.repeat(43);
const event = (type: 'DomainClaimed' | 'DomainVerified' | 'DomainReleased', payload: object, occurredAt: string) => ({ type, payload, metadata: { occurredAt } });

describe('org-domains read model', () => {
  it('given two claims and one verification, the verifier owns the domain and each company sees only its own claim', async () => {
    await spec.given(
      event('DomainClaimed', { domain: 'acme.test', companyId: 1, token: token('a') }, '2026-01-01T10:00:00.000Z'),
      event('DomainClaimed', { domain: 'acme.test', companyId: 2, token: token('b') }, '2026-01-01T10:01:00.000Z'),
      event('DomainVerified', { domain: 'acme.test', companyId: 1, method: 'dns-txt' }, '2026-01-01T10:02:00.000Z'),
    );
    expect(await domainOwner(spec.db, 'acme.test')).toBe(1);
    expect(await listDomains(spec.db, 1)).toEqual([
      { domain: 'acme.test', companyId: 1, token: token('a'), claimedAt: '2026-01-01T10:00:00.000Z', verifiedAt: '2026-01-01T10:02:00.000Z', verifiedBy: 'dns-txt' },
    ]);
    expect(await getDomain(spec.db, 2, 'acme.test')).toMatchObject({ token: token('b'), verifiedAt: null });
    expect((await listDomains(spec.db, null)).map((d) => d.companyId)).toEqual([1, 2]);
  });

  it('given the owner released the domain, nobody owns it until the next verification', async () => {
    await spec.given(
      event('DomainClaimed', { domain: 'acme.test', companyId: 1, token: token('a') }, '2026-01-01T10:00:00.000Z'),
      event('DomainVerified', { domain: 'acme.test', companyId: 1, method: 'operator' }, '2026-01-01T10:01:00.000Z'),
      event('DomainReleased', { domain: 'acme.test', companyId: 1 }, '2026-01-01T10:02:00.000Z'),
    );
    expect(await domainOwner(spec.db, 'acme.test')).toBeNull();
    expect(await listDomains(spec.db, 1)).toEqual([]);
  });

  it('keeps one row and its first verification time when events are applied again', async () => {
    const events = await spec.given(
      event('DomainClaimed', { domain: 'acme.test', companyId: 1, token: token('a') }, '2026-01-01T10:00:00.000Z'),
      event('DomainVerified', { domain: 'acme.test', companyId: 1, method: 'dns-txt' }, '2026-01-01T10:02:00.000Z'),
    );
    await spec.replay(events);
    expect(await listDomains(spec.db, 1)).toEqual([expect.objectContaining({ verifiedAt: '2026-01-01T10:02:00.000Z' })]);
  });

  it('reads the domain of an address in lower case, and none of a string without one', () => {
    expect(emailDomain('Alice@ACME.test ')).toBe('acme.test');
    expect(emailDomain('alice')).toBeNull();
    expect(emailDomain('alice@')).toBeNull();
  });
});
