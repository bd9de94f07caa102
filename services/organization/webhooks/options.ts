import type { Platform } from '../../platform.js';
import type { WebhookService } from './service.js';

/** What the feature's route plugins are given. */
export interface WebhookFeatureOptions {
  platform: Platform;
  webhooks: WebhookService;
}
