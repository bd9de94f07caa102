import { domainOwner, getDomain, listDomains, type DomainRow } from '#projections/org-domains/index.js';
import { domainStream } from '#events/organization/domains.js';
import { randomToken } from '#shared/auth/index.js';
import { aggregate } from '#shared/es/index.js';
import type { CommandContext } from '#shared/es/index.js';
import { AppError, found } from '#shared/errors.js';
import type { Platform } from '../../platform.js';
import { domainDecider, type DomainProof } from './decide.js';
import { lookUpTxt, txtVerdict, verificationRecord } from './dns.js';

/** A domain as the API shows it: the record to publish, and when it was verified. */
export interface DomainView {
  domain: string;
  verification: ReturnType<typeof verificationRecord>;
  verifiedAt: string | null;
}

export const domainView = (d: DomainRow): DomainView => ({ domain: d.domain, verification: verificationRecord(d.domain, d.token), verifiedAt: d.verifiedAt });

/**
 * A company's e-mail domains: claimed with a random token, proven by a TXT record the configured
 * resolvers (`DNS_SERVERS`) find, or by an operator; released. Each write goes through the domain's
 * own stream, where at most one company can hold it verified.
 */
export class DomainService {
  private readonly domains;

  constructor(
    private readonly platform: Platform,
    /** After a domain is verified: what enforcement there now ends (auth/sso-enforcement.ts). */
    private readonly afterVerify: (companyId: number, ctx: CommandContext) => Promise<void> = async () => undefined,
  ) {
    this.domains = aggregate(platform, { decider: domainDecider, stream: domainStream, readModels: ['org-domains'] });
  }

  list(companyId: number): Promise<DomainRow[]> {
    return listDomains(this.platform.db, companyId);
  }

  async get(companyId: number, domain: string): Promise<DomainRow> {
    return found(await getDomain(this.platform.db, companyId, domain), 'Domain not found');
  }

  /** Claims the domain for the company (again: the claim it has); 409 DOMAIN_TAKEN when another company verified it. */
  async claim(companyId: number, domain: string, ctx: CommandContext): Promise<DomainRow> {
    await this.domains.run(domain, { type: 'ClaimDomain', domain, companyId, token: randomToken(32) }, ctx);
    return this.get(companyId, domain);
  }

  /** Verifies the company's claim through DNS: 409 DOMAIN_NOT_VERIFIED saying what the resolver saw, DOMAIN_TAKEN when another company was first. */
  async verify(companyId: number, domain: string, ctx: CommandContext): Promise<DomainRow> {
    const claim = await this.get(companyId, domain);
    if (claim.verifiedAt !== null) return claim;
    const owner = await domainOwner(this.platform.db, domain);
    if (owner !== null && owner !== companyId) throw new AppError('DOMAIN_TAKEN', `${domain} is verified by another company`);
    const { name, value } = verificationRecord(domain, claim.token);
    const verdict = txtVerdict(await lookUpTxt(this.platform.config.DNS_SERVERS, name), name, value);
    if (!verdict.ok) throw new AppError('DOMAIN_NOT_VERIFIED', `Not verified: ${verdict.saw}`);
    return this.record(companyId, domain, { method: 'dns-txt', token: claim.token }, ctx);
  }

  /** Gives the claim up; a verified domain is free again for another company to verify. */
  async release(companyId: number, domain: string, ctx: CommandContext): Promise<void> {
    await this.domains.run(domain, { type: 'ReleaseDomain', domain, companyId }, ctx);
  }

  private async record(companyId: number, domain: string, proof: DomainProof, ctx: CommandContext): Promise<DomainRow> {
    await this.domains.run(domain, { type: 'VerifyDomain', domain, companyId, proof }, ctx);
    await this.afterVerify(companyId, ctx);
    return this.get(companyId, domain);
  }
}
