export { companyDecider, type CompanyCommand, type CompanyState } from './decide.js';
export { companyStream, type CompanyEvent } from '#events/organization/companies.js';
