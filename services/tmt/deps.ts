import type { DeviceSessionsForResults } from '../df/index.js';
import type { OrganizationModule } from '../organization/index.js';

/** What test management asks of the organization and of device testing. */
export interface TmtDeps {
  organization: OrganizationModule;
  /**
   * The device sessions results name (`deviceSessionId`): which are the company's (another company's id
   * is treated as none), and the videos a reader may see, listed as the result's attachments.
   */
  deviceSessions: DeviceSessionsForResults;
}
