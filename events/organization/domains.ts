import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';

/** How a verification was proven: the domain's TXT record, or an operator on the platform's own machine. */
export const DOMAIN_VERIFICATION_METHODS = ['dns-txt', 'operator'] as const;

/** An e-mail domain as the platform keeps it: lower case, labels of letters, digits and inner hyphens, no trailing dot. */
export const DOMAIN_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

const domain = z.string().regex(DOMAIN_NAME);
const companyId = z.number().int().positive();

/**
 * Events of the `email-domain-<domain>` stream: every company's claim on one e-mail domain and the one
 * company that proved it owns it. Several companies may claim a domain; the first to verify it owns it
 * until it releases it. `token` is the value the company publishes in DNS (not a secret once published).
 */
export const domainEvents = defineEvents({
  DomainClaimed: z.object({ domain, companyId, token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/) }),
  DomainVerified: z.object({ domain, companyId, method: z.enum(DOMAIN_VERIFICATION_METHODS) }),
  DomainReleased: z.object({ domain, companyId }),
});
export type DomainEvent = EventOf<typeof domainEvents>;
export const domainStream = (name: string): string => `email-domain-${name}`;
