import type { Platform } from '../../platform.js';
import type { ScimService } from './service.js';

export interface ScimFeatureOptions {
  platform: Platform;
  scim: ScimService;
}
