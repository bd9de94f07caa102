import type { OrganizationModule } from '../organization/index.js';

/** What test management asks of the organization. */
export interface TmtDeps {
  organization: OrganizationModule;
}
