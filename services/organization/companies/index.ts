import fp from 'fastify-plugin';

export { companyDecider, type CompanyCommand, type CompanyState } from './decide.js';
export { companyStream, type CompanyEvent } from '#events/organization/companies.js';

/** Companies take no options: they are registered by sign-up and the bootstrap administrator. */
export type CompaniesOptions = Record<string, never>;

/**
 * The company aggregate: written by sign-up and the bootstrap administrator (the auth feature), read
 * through the `org-directory` read model, with no HTTP face of its own. The plugin registers nothing;
 * it stands in the module's feature list like every feature, so the list is the whole of the module.
 */
export const companiesFeature = fp<CompaniesOptions>(async () => {}, { name: 'organization-companies', fastify: '5.x' });
