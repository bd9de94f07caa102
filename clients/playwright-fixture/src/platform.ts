import { QaPlatformApiError, runnerCall, runnerConnection, type RunnerConnection } from '@qa-platform/client';

/** Where the fixture finds the platform and how it signs in: its options over the environment. */
export interface QaPlatformOptions {
  /** The platform's address; default `QA_PLATFORM_URL`. */
  url?: string;
  /** A device-testing API key (`dfk_...`, sent as `X-Api-Key`) or a pipeline key with the `devices` scope (`qak_...`, sent as a bearer token); default `QA_PLATFORM_API_KEY`. */
  apiKey?: string;
  /** The workspace, for a credential that needs one named; default `QA_PLATFORM_WORKSPACE_ID`. */
  workspaceId?: string | number;
  /** The build the sessions belong to; default `QA_PLATFORM_BUILD`. */
  build?: string;
  /** Which browser device: its id, or a search of names, aliases and models; default `QA_PLATFORM_DEVICE` (an id or a name). */
  device?: { id?: string; search?: string };
  /** How long to wait for a free matching device (default 120 s). */
  deviceTimeoutMs?: number;
  /** Whether each test's session records its screen as a video (`record` of the session); default the workspace's (automation sessions record unless it turned that off). */
  record?: boolean;
  /** How long, after a failed test's session ended, to wait for the platform to store its video before saying it is not there yet (default 60 s). */
  videoTimeoutMs?: number;
}

export interface Platform extends RunnerConnection {
  build: string | undefined;
  device: { id?: string; search?: string };
  deviceTimeoutMs: number;
  record: boolean | undefined;
  videoTimeoutMs: number;
}

/** The options merged over the environment; throws naming what is missing. */
export function platformOf(options: QaPlatformOptions, env: NodeJS.ProcessEnv = process.env): Platform {
  const named = env.QA_PLATFORM_DEVICE;
  const device = options.device ?? (named ? (/^[0-9a-f-]{36}$/i.test(named) ? { id: named } : { search: named }) : {});
  return { ...runnerConnection(options, env), build: options.build ?? (env.QA_PLATFORM_BUILD || undefined), device, deviceTimeoutMs: options.deviceTimeoutMs ?? 120_000, record: options.record, videoTimeoutMs: options.videoTimeoutMs ?? 60_000 };
}

const RETRY = new Set(['DEVICE_BUSY', 'DEVICE_RESERVED', 'DEVICE_UNAVAILABLE', 'QUOTA_EXCEEDED']);

/**
 * Opens an automation session on a free browser device that matches, waiting (polling each second)
 * while every match is busy; answers the session's id.
 */
export async function openSession(platform: Platform, name: string): Promise<string> {
  const deadline = Date.now() + platform.deviceTimeoutMs;
  const body = { name: name.slice(0, 200), type: 'automation', ...(platform.build ? { buildName: platform.build } : {}), ...(platform.record !== undefined ? { record: platform.record } : {}) };
  for (;;) {
    for (const deviceId of await candidates(platform)) {
      try {
        return (await runnerCall<{ id: string }>(platform, 'POST', '/df/api/sessions', { ...body, deviceId })).id;
      } catch (err) {
        if (!(err instanceof QaPlatformApiError && (err.status === 409 || RETRY.has(err.code ?? '')))) throw err;
      }
    }
    if (Date.now() > deadline) throw new Error(`QA Platform: no matching browser device became free within ${Math.round(platform.deviceTimeoutMs / 1000)} s`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

async function candidates(platform: Platform): Promise<string[]> {
  if (platform.device.id) return [platform.device.id];
  const query = new URLSearchParams({ platform: 'web', status: 'available', size: '20' });
  if (platform.device.search) query.set('search', platform.device.search);
  return (await runnerCall<{ content: { id: string }[] }>(platform, 'GET', `/df/api/devices?${query}`)).content.map((d) => d.id);
}

