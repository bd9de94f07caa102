import type { Platform } from '../../platform.js';
import type { IdentityProviderService } from './service.js';
import type { SsoFlows } from './sso.js';

/** What the feature's route plugins are given. */
export interface IdentityProviderFeatureOptions {
  platform: Platform;
  providers: IdentityProviderService;
  flows: SsoFlows;
  /** "Try this configuration" of a saved provider. */
  check: (id: number, companyId: number) => Promise<Record<string, unknown>>;
}
