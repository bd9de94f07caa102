import type { Platform } from '../../platform.js';
import type { AccessReviewService } from './service.js';

/** What the feature's route plugins are given. */
export interface AccessReviewOptions {
  platform: Platform;
  reviews: AccessReviewService;
}
