import type { Platform } from '../../platform.js';
import type { DomainService } from './service.js';

/** What the feature's route plugins are given. */
export interface DomainFeatureOptions {
  platform: Platform;
  domains: DomainService;
}
