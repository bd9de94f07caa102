import { hubConnection, type Settings } from './settings.js';

/** The parts of WebdriverIO's runner configuration the service reads and sets. */
export interface RunnerConfig {
  protocol?: string;
  hostname?: string;
  port?: number;
  path?: string;
  headers?: Record<string, string>;
  reporters?: unknown[];
}

/** Points the runner at the platform's hub with the credential (launcher and worker both do). */
export function pointAtHub(config: RunnerConfig, settings: Settings): void {
  const hub = hubConnection(settings);
  Object.assign(config, hub, { headers: { ...config.headers, ...hub.headers } });
}
