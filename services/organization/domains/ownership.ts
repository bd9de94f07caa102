import { domainOwner, emailDomain } from '#projections/org-domains/index.js';
import { companyProvidersForDomain, type IdentityProviderRow } from '#projections/org-identity-providers/index.js';
import type { Sql } from '#shared/db/index.js';
import { AppError } from '#shared/errors.js';

/**
 * Who decides for an e-mail address: the company that verified its domain, and no other. Sign-in
 * enforcement, the providers a sign-in page offers, and who may create accounts at the address all ask here.
 */

/** The enabled providers of the address's domain owner that list the domain; none while nobody has verified it. */
export async function offeredIdentityProviders(db: Sql, email: string): Promise<IdentityProviderRow[]> {
  const domain = emailDomain(email);
  const owner = domain ? await domainOwner(db, domain) : null;
  return owner === null ? [] : companyProvidersForDomain(db, owner, domain!);
}

/** The owner's enabled enforcing provider for the address's domain: the only way in for it; null when passwords are allowed. */
export async function enforcingIdentityProvider(db: Sql, email: string): Promise<IdentityProviderRow | null> {
  return (await offeredIdentityProviders(db, email)).find((p) => p.enforce) ?? null;
}

/** 409 DOMAIN_TAKEN when another company has verified one of these domains. */
export async function refuseDomainsOfOthers(db: Sql, companyId: number, domains: readonly string[]): Promise<void> {
  for (const domain of domains) {
    const owner = await domainOwner(db, domain);
    if (owner !== null && owner !== companyId) throw new AppError('DOMAIN_TAKEN', `${domain} is verified by another company`);
  }
}

/** 409 DOMAIN_TAKEN when the address's domain is verified by another company (an invitation cannot pull its people). */
export async function refuseAddressOfOthers(db: Sql, companyId: number, email: string): Promise<void> {
  const domain = emailDomain(email);
  if (domain) await refuseDomainsOfOthers(db, companyId, [domain]);
}

/**
 * 409 DOMAIN_TAKEN when any company has verified the address's domain: its people join through that
 * company (an invitation, its single sign-on), never by signing up a company of their own beside it, which
 * would put an address the company answers for out of its reach (its "single sign-on required" included).
 */
export async function refuseVerifiedAddress(db: Sql, email: string): Promise<void> {
  const domain = emailDomain(email);
  if (domain && (await domainOwner(db, domain)) !== null) {
    throw new AppError('DOMAIN_TAKEN', `${domain} is verified by a company on this installation: ask its administrator for an invitation, or sign in with its single sign-on`);
  }
}

/**
 * 403 DOMAIN_NOT_OWNED unless the address's domain is verified by this company: an identity provider or a
 * directory (SCIM) acts only for the company's own addresses. The same answer whoever owns the domain and
 * whether the address has an account anywhere, so the refusal tells nothing about other companies.
 */
export async function requireOwnAddress(db: Sql, companyId: number, email: string): Promise<void> {
  const domain = emailDomain(email);
  if (!domain || (await domainOwner(db, domain)) !== companyId) {
    throw new AppError('DOMAIN_NOT_OWNED', `${domain ?? email} is not a verified domain of this company`);
  }
}
