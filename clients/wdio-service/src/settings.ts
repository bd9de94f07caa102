import { QaPlatformConfigError, runnerConnection, type RunnerConnection } from '@qa-platform/client';

/** What the service needs to reach the platform, from its options and the environment. */
export interface QaPlatformOptions {
  /** The platform's address (`https://qa.example.com`); default `QA_PLATFORM_URL`. */
  url?: string;
  /** A device-testing API key (`dfk_...`, sent as `X-Api-Key`) or a pipeline key with the `devices` scope (`qak_...`, sent as a bearer token); default `QA_PLATFORM_API_KEY`. */
  apiKey?: string;
  /** The workspace, for a credential that needs one named (`X-Workspace-Id`); default `QA_PLATFORM_WORKSPACE_ID`. */
  workspaceId?: string | number;
  /** The build the sessions belong to (`df:build`); default `QA_PLATFORM_BUILD`. */
  build?: string;
  /**
   * Which device: added to every capability set. `id` is `df:deviceId`, `name` `appium:deviceName`
   * (name, alias or model), `platform` `platformName`, `platformVersion` `appium:platformVersion`.
   * Default: `QA_PLATFORM_DEVICE` as `appium:udid` (a device's id or name), else what the capabilities say.
   */
  device?: { id?: string; name?: string; platform?: string; platformVersion?: string };
  /** Print the link to a failed session's replay (default true). */
  replayLink?: boolean;
  /** Whether the sessions record their screen as a video (`df:recordVideo`); default the capabilities', else the workspace's (automation sessions record unless it turned that off). */
  recordVideo?: boolean;
  /** Print each failed test's video link and where it starts in the video, once the session ended (default true). */
  videoLink?: boolean;
  /** How long, after a failed spec's session ended, to wait for the platform to store its video before saying it is not there yet (default 60 s). */
  videoTimeoutMs?: number;
}

export interface Settings extends RunnerConnection {
  build: string | undefined;
  deviceCapabilities: Record<string, string>;
  recordVideo: boolean | undefined;
  replayLink: boolean;
  videoLink: boolean;
  videoTimeoutMs: number;
}

export { QaPlatformConfigError };

/** The options merged over the environment, checked. */
export function resolveSettings(options: QaPlatformOptions = {}, env: NodeJS.ProcessEnv = process.env): Settings {
  const connection = runnerConnection(options, env);
  const device = options.device ?? {};
  const deviceCapabilities: Record<string, string> = {};
  if (device.id) deviceCapabilities['df:deviceId'] = device.id;
  if (device.name) deviceCapabilities['appium:deviceName'] = device.name;
  if (device.platform) deviceCapabilities.platformName = device.platform;
  if (device.platformVersion) deviceCapabilities['appium:platformVersion'] = device.platformVersion;
  if (Object.keys(deviceCapabilities).length === 0 && env.QA_PLATFORM_DEVICE) deviceCapabilities['appium:udid'] = env.QA_PLATFORM_DEVICE;
  return { ...connection, build: options.build ?? (env.QA_PLATFORM_BUILD || undefined), deviceCapabilities, recordVideo: options.recordVideo, replayLink: options.replayLink ?? true, videoLink: options.videoLink ?? true, videoTimeoutMs: options.videoTimeoutMs ?? 60_000 };
}

/** The WebDriver connection options of the platform's hub (`/df/wd`). */
export function hubConnection(settings: Settings): { protocol: 'http' | 'https'; hostname: string; port: number; path: string; headers: Record<string, string> } {
  const { base } = settings;
  const protocol = base.protocol === 'https:' ? 'https' : 'http';
  return {
    protocol,
    hostname: base.hostname,
    port: base.port ? Number(base.port) : protocol === 'https' ? 443 : 80,
    path: `${base.pathname}df/wd`,
    headers: settings.headers,
  };
}
