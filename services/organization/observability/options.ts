import type { Platform } from '../../platform.js';

/** What the feature's route plugins are given. */
export interface ObservabilityFeatureOptions {
  platform: Platform;
}
