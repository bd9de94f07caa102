import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { z } from 'zod';
import { hostIdOfToken } from '#shared/wire/index.js';
import { ProfileConfig } from './browser/profiles.js';
import { VideoSettings } from './video/settings.js';
import { REBOOT_WAIT_DEFAULT_MS, REBOOT_WAIT_MAX_MS, REBOOT_WAIT_MIN_MS } from './android/reboot.js';

const BrowserDeviceConfig = ProfileConfig.extend({
  provider: z.literal('browser'),
  id: z.uuid().optional(),
  name: z.string().min(1).max(200),
});

/** A device of the simulated provider: a full in-memory device for load tests and benchmarks. */
const SimulatedDeviceConfig = z.object({
  provider: z.literal('simulated'),
  id: z.uuid().optional(),
  name: z.string().min(1).max(200),
  platform: z.enum(['android', 'ios', 'web']).default('android'),
  type: z.enum(['phone', 'tablet', 'tv', 'watch', 'desktop']).default('phone'),
  model: z.string().default('Simulated phone'),
  manufacturer: z.string().default('Simulator'),
  osVersion: z.string().default('14'),
  width: z.number().int().positive().default(1080),
  height: z.number().int().positive().default(2400),
  /** Milliseconds `prepare` takes, to model a slow device. */
  prepareMs: z.number().int().nonnegative().default(0),
  /**
   * Loopback ports of the agent's machine that the device's `tcp_forward` reaches (the simulated
   * device's "own" ports; none unless listed, so a simulated device never opens the host's services).
   */
  tcpForwardPorts: z.array(z.number().int().min(1).max(65_535)).max(100).default([]),
});

/** An app's bundle id (`com.example.WebDriverAgentRunner.xctrunner`). */
const BundleId = z.string().max(255).regex(/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/, 'a bundle id');

export const AgentDeviceConfig = z.discriminatedUnion('provider', [BrowserDeviceConfig, SimulatedDeviceConfig]);
export type AgentDeviceConfig = z.infer<typeof AgentDeviceConfig>;
export type BrowserDeviceConfig = z.infer<typeof BrowserDeviceConfig>;
export type SimulatedDeviceConfig = z.infer<typeof SimulatedDeviceConfig>;

/** The agent's config file (JSON; its path is `AGENT_CONFIG`). */
export const AgentConfigFile = z.object({
  /** Stable id of this host; derived from the machine name when absent. */
  hostId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
  nodeName: z.string().min(1).max(200).optional(),
  hubId: z.string().min(1).max(200).default('local'),
  /**
   * The host's enrolment token (`dfh_...`, from `POST /df/api/hosts`), or the operator's shared-pool
   * token. With an enrolment token the host announces itself under the enrolment's id.
   */
  hostToken: z.string().min(1).max(512).optional(),
  heartbeatMs: z.number().int().min(100).max(60_000).default(2_000),
  /** How often each device's health is read (battery, storage, thermal state); also at each session's end. */
  healthIntervalMs: z.number().int().min(500).max(3_600_000).default(60_000),
  chromiumPath: z.string().min(1).default('/usr/lib/chromium/chromium'),
  /** The direct HTTP/WebSocket server the gateway reaches devices through (CDP, WebDriver). */
  dataPlane: z
    .object({
      host: z.string().min(1).default('127.0.0.1'),
      port: z.number().int().min(0).max(65_535).default(0),
      /** URL the service should use when the listening address is not reachable as is. */
      advertiseUrl: z.url({ protocol: /^https?$/ }).optional(),
    })
    .default({ host: '127.0.0.1', port: 0 }),
  /**
   * Start ahead of need, at the first heartbeat after the host is announced: the Appium server (when a
   * device can be driven over WebDriver) and one spare browser per browser device, launched again after
   * each session on a new profile. false: each starts when a session needs it.
   */
  startAhead: z.boolean().default(true),
  /** The Appium server behind `/df/wd`: started ahead (`startAhead`) or by the first WebDriver session, stopped with the agent. */
  appium: z
    .object({
      enabled: z.boolean().default(true),
      /** A fixed loopback port; a free one when absent. */
      port: z.number().int().min(1).max(65_535).optional(),
      /** APPIUM_HOME; default: the project that installed `appium` (its drivers are its npm dependencies). */
      home: z.string().min(1).optional(),
    })
    .default({ enabled: true }),
  /** Android devices of an adb server; off unless this section is present (then on unless `enabled: false`). */
  android: z
    .object({
      enabled: z.boolean().default(true),
      adbHost: z.string().min(1).max(255).default('127.0.0.1'),
      adbPort: z.number().int().min(1).max(65_535).default(5037),
      /** The `adb` command, for interactive shells (terminals) on the devices. */
      adbBinary: z.string().min(1).max(1_000).default('adb'),
      /**
       * Touch through Appium's UiAutomator2 server where minitouch cannot run (Android 10+ without root):
       * the agent installs the server's two packages on a phone at its first session's first gesture.
       * `false` keeps such phones on `input` (one finger), e.g. where a device policy forbids test packages.
       */
      uiautomator2: z.boolean().default(true),
      /**
       * How long mending waits for a device it rebooted to be back on the adb server and done booting
       * before the step fails (1 s to 4 min; `AGENT_REBOOT_WAIT` overrides it).
       */
      rebootWaitMs: z.number().int().min(REBOOT_WAIT_MIN_MS).max(REBOOT_WAIT_MAX_MS).default(REBOOT_WAIT_DEFAULT_MS),
    })
    .optional(),
  /**
   * iOS devices of a usbmuxd (Debian's `usbmuxd` package, or Apple's on a Mac); off unless this section
   * is present (then on unless `enabled: false`). `usbmuxd` is its Unix socket or `host:port`.
   */
  ios: z
    .object({
      enabled: z.boolean().default(true),
      usbmuxd: z
        .string()
        .min(1)
        .max(300)
        .refine((v) => /^(unix:)?\//i.test(v) || /^[^/:][^:]*:\d{1,5}$/.test(v), 'usbmuxd is an absolute socket path or host:port')
        .default('/var/run/usbmuxd'),
      /**
       * WebDriverAgent, the hands of an iPhone: found when it already runs on the device, else started
       * with `ios runwda` when `bundleId` names the signed runner. Its HTTP and MJPEG ports are reached
       * through usbmuxd.
       */
      wda: z
        .object({
          bundleId: BundleId.optional(),
          testRunnerBundleId: BundleId.optional(),
          xctestConfig: z.string().min(1).max(200).regex(/^[^/\0]+$/).default('WebDriverAgentRunner.xctest'),
          port: z.number().int().min(1).max(65_535).default(8100),
          mjpegPort: z.number().int().min(1).max(65_535).default(9100),
          startTimeoutMs: z.number().int().min(1_000).max(600_000).default(60_000),
          /** Frames a second of WDA's MJPEG stream (its `mjpegServerFramerate` setting). */
          mjpegFramerate: z.number().int().min(1).max(60).default(30),
        })
        .default({ xctestConfig: 'WebDriverAgentRunner.xctest', port: 8100, mjpegPort: 9100, startTimeoutMs: 60_000, mjpegFramerate: 30 }),
      /** go-ios: its binary (default: the npm package's) and the iOS 17+ tunnel the agent runs for the host. */
      goIos: z
        .object({
          binary: z.string().min(1).max(1_000).optional(),
          /** `auto`: started once a device with iOS 17 or later is attached; `on`: at start; `off`: never. */
          tunnel: z.enum(['auto', 'on', 'off']).default('auto'),
          /** Userspace networking (no root, no TUN device); false: a kernel TUN interface (needs root). */
          userspace: z.boolean().default(true),
          /** Where the tunnel answers go-ios's other commands (`--tunnel-info-port`). */
          tunnelInfoPort: z.number().int().min(1).max(65_535).default(60_105),
          /** The folder go-ios runs in (the tunnel keeps its pairing identity there); default: `df-go-ios` in the temporary folder. */
          workDir: z.string().min(1).max(1_000).optional(),
        })
        .default({ tunnel: 'auto', userspace: true, tunnelInfoPort: 60_105 }),
    })
    .optional(),
  /** Session videos encoded on this host (ffmpeg): `AGENT_VIDEO_PRESET`, `AGENT_VIDEO_MAX_SIZE` and `AGENT_VIDEO_FPS` override it. */
  video: VideoSettings.prefault({}),
  devices: z.array(AgentDeviceConfig).default([
    { provider: 'browser', name: 'Desktop Chromium', profile: 'desktop' },
    { provider: 'browser', name: 'Pixel 7 (emulated)', profile: 'pixel-7' },
  ]),
});
export type AgentConfigFile = z.input<typeof AgentConfigFile>;

export interface AgentConfig extends Omit<z.infer<typeof AgentConfigFile>, 'hostId' | 'nodeName'> {
  hostId: string;
  nodeName: string;
}

/** A UUID that is always the same for the same inputs (a device keeps its id across agent restarts). */
export function stableUuid(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Parses an agent configuration: the given object, or the JSON file at `path`, or the defaults (one
 * desktop and one phone browser device). `seed` makes the default host id unique per installation.
 */
export function loadAgentConfig(source: { path?: string; value?: AgentConfigFile; seed?: string; hostToken?: string | undefined; healthIntervalMs?: number | undefined; rebootWaitMs?: number | undefined; video?: { [K in 'enabled' | 'preset' | 'maxSize' | 'fps']?: VideoSettings[K] | undefined } }): AgentConfig {
  let raw: unknown = source.value ?? {};
  if (source.path) {
    if (!existsSync(source.path)) throw new Error(`AGENT_CONFIG: no file at ${source.path}`);
    try {
      raw = JSON.parse(readFileSync(source.path, 'utf8'));
    } catch (err) {
      throw new Error(`AGENT_CONFIG: ${source.path} is not valid JSON`, { cause: err });
    }
  }
  if (source.hostToken && raw && typeof raw === 'object') raw = { ...raw, hostToken: source.hostToken };
  if (source.healthIntervalMs !== undefined && raw && typeof raw === 'object') raw = { ...raw, healthIntervalMs: source.healthIntervalMs };
  const android = raw && typeof raw === 'object' ? (raw as { android?: unknown }).android : undefined;
  if (source.rebootWaitMs !== undefined && android && typeof android === 'object') raw = { ...(raw as object), android: { ...android, rebootWaitMs: source.rebootWaitMs } };
  const video = Object.fromEntries(Object.entries(source.video ?? {}).filter(([, v]) => v !== undefined));
  if (Object.keys(video).length > 0 && raw && typeof raw === 'object') raw = { ...raw, video: { ...((raw as { video?: object }).video ?? {}), ...video } };
  if (raw && typeof raw === 'object' && 'companyId' in raw) {
    throw new Error('Agent config is invalid: companyId is no longer set by the host; enrol the host (POST /df/api/hosts) and set hostToken');
  }
  const parsed = AgentConfigFile.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`Agent config is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const host = hostname().replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 40) || 'host';
  const enrolled = parsed.data.hostToken ? hostIdOfToken(parsed.data.hostToken) : null;
  if (enrolled && parsed.data.hostId && parsed.data.hostId !== enrolled) {
    throw new Error(`Agent config is invalid: hostId ${parsed.data.hostId} is not the host its token enrols (${enrolled}); remove hostId`);
  }
  const hostId = enrolled ?? parsed.data.hostId ?? `${host}-${createHash('sha256').update(`${hostname()}|${source.seed ?? ''}`).digest('hex').slice(0, 10)}`;
  const names = new Set<string>();
  for (const d of parsed.data.devices) {
    if (names.has(d.name)) throw new Error(`Agent config is invalid: two devices are named "${d.name}"`);
    names.add(d.name);
  }
  return { ...parsed.data, hostId, nodeName: parsed.data.nodeName ?? hostname() };
}
