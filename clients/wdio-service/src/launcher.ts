import { SevereServiceError } from 'webdriverio';
import { QaPlatformApiError, runnerCall } from '@qa-platform/client';
import { pointAtHub, type RunnerConfig } from './hub.js';
import { resolveSettings, type QaPlatformOptions, type Settings } from './settings.js';

/**
 * Before any worker starts: points the run at the hub (so WebdriverIO sets up no local browser driver)
 * and checks the credential against the hub's status, stopping the run at once when the platform
 * refuses it.
 */
export async function prepareRun(config: RunnerConfig, settings: Settings): Promise<void> {
  pointAtHub(config, settings);
  try {
    await runnerCall(settings, 'GET', '/df/wd/status');
  } catch (err) {
    const why = err instanceof QaPlatformApiError ? `the platform answered ${`${err.status} ${err.code ?? ''}`.trim()}: ${err.reason}` : (err as Error).message;
    throw new SevereServiceError(`QA Platform: cannot use the WebDriver hub at ${settings.base.origin} (${why})`);
  }
}

/** The launcher service of the package's name form (`services: ['@qa-platform/wdio-service']`). */
export class QaPlatformLauncher {
  private readonly settings: Settings;

  constructor(options: QaPlatformOptions = {}) {
    this.settings = resolveSettings(options);
  }

  onPrepare(config: RunnerConfig): Promise<void> {
    return prepareRun(config, this.settings);
  }
}
