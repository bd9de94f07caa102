import { dfProjections } from './df/index.js';
import { organizationProjections } from './organization/index.js';
import { tmtProjections } from './tmt/index.js';
import { healthcheckProjections } from './healthcheck/index.js';
import { autorunnerProjections } from './autorunner/index.js';

/** Every read model of the platform, run by the `projections` service. */
export const ALL_PROJECTIONS = [...organizationProjections, ...dfProjections, ...tmtProjections, ...healthcheckProjections, ...autorunnerProjections];
