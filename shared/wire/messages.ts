import { z } from 'zod';
import { PROTOCOL_VERSION } from './subjects.js';
import { BaselineSettings, HealthSample, MendPlan, MendResult } from './health.js';
import { InstrumentationEvent, JavaName, TestRef } from './instrumentation.js';

export { InstrumentationEvent, TestOutcome, TestRef } from './instrumentation.js';

/**
 * Every message of the agent protocol as a zod schema. Both sides validate what they receive, so a
 * malformed or foreign message is refused at the edge instead of surfacing as a strange state later.
 */

const id = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/);

export const DevicePlatform = z.enum(['android', 'ios', 'web']);
export const DeviceType = z.enum(['phone', 'tablet', 'tv', 'watch', 'desktop']);
export type DevicePlatform = z.infer<typeof DevicePlatform>;
export type DeviceType = z.infer<typeof DeviceType>;

export const Screen = z.object({
  /** Device pixels of a screenshot. */
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** Device pixels per CSS pixel (browser devices). */
  scale: z.number().positive(),
});
export type Screen = z.infer<typeof Screen>;

/** What a device is: reported by the agent, never changed by the service. */
/** The screen path of a device: Android `minicap`/`screencap`, iOS `wda-mjpeg`/`instruments`/`screenshotr`, browsers `cdp`. */
export const SCREEN_PATHS = ['minicap', 'screencap', 'wda-mjpeg', 'screenshotr', 'instruments', 'cdp'] as const;
/** The input path: Android `minitouch`/`agent` (the UiAutomator2 server)/`input`, iOS `wda`, browsers `cdp`, `none` (view-only). */
export const INPUT_PATHS = ['minitouch', 'agent', 'input', 'wda', 'cdp', 'none'] as const;
export const DeviceCapabilities = z.object({
  screen: z.enum(SCREEN_PATHS).optional(),
  input: z.enum(INPUT_PATHS).optional(),
  /** Android's text path: `ime` (the Unicode input method) or `input` (printable ASCII). */
  text: z.enum(['ime', 'input']).optional(),
  reason: z.string().max(500).optional(),
});

export const DeviceInfo = z.object({
  deviceId: id,
  name: z.string().min(1).max(200),
  platform: DevicePlatform,
  osVersion: z.string().max(100),
  model: z.string().max(200),
  manufacturer: z.string().max(200),
  type: DeviceType,
  isRealDevice: z.boolean(),
  /** Which provider drives it (`browser`, `simulated`, later `android`, `ios`). */
  provider: z.string().min(1).max(50),
  screen: Screen,
  /**
   * How the agent shows the screen and takes input on this device, and why when it runs on a fallback
   * or is view-only (`reason`). Known once a session has prepared the device; absent before.
   */
  capabilities: DeviceCapabilities.optional(),
});
export type DeviceInfo = z.infer<typeof DeviceInfo>;
export type DeviceCapabilities = z.infer<typeof DeviceCapabilities>;

/** What a device is doing, as its worker sees it. */
export const WorkerState = z.object({
  deviceId: id,
  state: z.enum(['ready', 'preparing', 'in_session', 'releasing', 'broken']),
  /** The session the device is prepared for, if any. */
  sessionId: z.string().nullable(),
  detail: z.string().max(500).optional(),
});
export type WorkerState = z.infer<typeof WorkerState>;

const envelope = { protocol: z.literal(PROTOCOL_VERSION), hostId: id };

export const Hello = z.object({
  ...envelope,
  nodeName: z.string().min(1).max(200),
  hubId: z.string().min(1).max(200),
  /**
   * The host's enrolment token (`dfh_...`), or the operator's shared-pool token. The service binds the
   * host and its devices to the company and workspaces of the enrolment, and refuses a hello without one.
   */
  token: z.string().max(512).optional(),
  agentVersion: z.string().max(50),
  startedAt: z.string(),
  devices: z.array(DeviceInfo),
  states: z.array(WorkerState),
  /** Base URL of the agent's data plane (direct HTTP/WebSocket), when it runs one. */
  dataPlaneUrl: z.url({ protocol: /^https?$/ }).max(2_000).optional(),
});
export type Hello = z.infer<typeof Hello>;

export const Heartbeat = z.object({ ...envelope, seq: z.number().int().nonnegative(), states: z.array(WorkerState) });
export type Heartbeat = z.infer<typeof Heartbeat>;

/** The whole device set after a change (a device came or went); the service reconciles it. */
export const DevicesReport = z.object({ ...envelope, devices: z.array(DeviceInfo), states: z.array(WorkerState) });
export type DevicesReport = z.infer<typeof DevicesReport>;

export const Bye = z.object({ ...envelope, reason: z.string().max(200) });
export type Bye = z.infer<typeof Bye>;

/** The service's answer to hello and heartbeat: whether it knows the host (else announce again). */
/** A public verification key of the service (JWK), as in its JWKS. */
export const DataPlaneKey = z.looseObject({ kty: z.string().max(10), kid: z.string().max(200), alg: z.string().max(20).optional() });

export const HostAck = z.object({
  known: z.boolean(),
  /** Public keys (JWKS) that verify the service's data-plane tokens; sent in the answer to a hello. */
  dataPlaneKeys: z.object({ keys: z.array(DataPlaneKey).max(20) }).optional(),
});
export type HostAck = z.infer<typeof HostAck>;

/** A screenshot coordinate, in pixels. */
const coordinate = z.number().nonnegative();
/** How long a gesture takes, when the caller says. */
const gestureDuration = { durationMs: z.number().int().min(1).max(10_000).optional() };
/** A finger's distance from the other, in pixels. */
const fingerDistance = z.number().positive().max(10_000);

/** `POST .../device/control` bodies (docs/api-conventions.md, "Device testing"); coordinates are screenshot pixels. */
export const ControlAction = z.discriminatedUnion('action', [
  z.object({ action: z.literal('tap'), x: coordinate, y: coordinate }),
  z.object({ action: z.literal('longPress'), x: coordinate, y: coordinate, ...gestureDuration }),
  z.object({ action: z.literal('swipe'), x1: coordinate, y1: coordinate, x2: coordinate, y2: coordinate, ...gestureDuration }),
  /** Two fingers on a horizontal line through (x, y), from `fromDistance` to `toDistance` pixels apart (devices with multi-touch). */
  z.object({ action: z.literal('pinch'), x: coordinate, y: coordinate, fromDistance: fingerDistance, toDistance: fingerDistance, ...gestureDuration }),
  z.object({ action: z.literal('text'), text: z.string().min(1).max(10_000) }),
  z.object({ action: z.literal('key'), key: z.string().min(1).max(50) }),
  z.object({ action: z.literal('home') }),
  z.object({ action: z.literal('back') }),
  z.object({ action: z.literal('rotate'), orientation: z.enum(['portrait', 'landscape']) }),
  z.object({
    action: z.literal('openUrl'),
    url: z.url({ protocol: /^(https?|about|data)$/ }).max(8_000),
  }),
]);
export type ControlAction = z.infer<typeof ControlAction>;

/** Largest piece of a file in one bus message (base64 of it stays well under NATS's 1 MiB payload limit). */
export const STAGE_CHUNK_BYTES = 512 * 1024;
/** An absolute path on a device: no `..`, no NUL or line breaks. */
export const DevicePath = z
  .string()
  .min(1)
  .max(1_024)
  .regex(/^\/[^\0\r\n]*$/, 'an absolute path')
  .refine((p) => !p.split('/').includes('..'), 'a path without ..');
/** An Android package name (`com.example.app`). */
export const PackageName = z.string().max(255).regex(/^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$/, 'a package name');
/** Apps a helper opens: the store, the settings, an app's own settings page, the app itself. */
export const AppHelper = z.enum(['play-store', 'settings', 'app-settings', 'launch-app', 'developer-options', 'wifi-settings']);
export type AppHelper = z.infer<typeof AppHelper>;
const stageId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

export const AgentCommand = z.discriminatedUnion('op', [
  z.object({ op: z.literal('prepare') }),
  z.object({ op: z.literal('release') }),
  z.object({ op: z.literal('screenshot'), format: z.enum(['png', 'jpeg']), quality: z.number().int().min(1).max(100).optional() }),
  z.object({ op: z.literal('control'), action: ControlAction }),
  z.object({ op: z.literal('logs'), afterSeq: z.number().int().nonnegative().optional() }),
  z.object({ op: z.literal('uiTree') }),
  /** Checks the current screen for accessibility problems (axe-core on a browser, rules over the UI tree on Android). */
  z.object({ op: z.literal('accessibilityScan') }),
  /** Starts or renews a screencast lease; the agent stops streaming when every lease has lapsed. */
  z.object({
    op: z.literal('screencast'),
    consumerId: id,
    leaseMs: z.number().int().min(1_000).max(120_000),
    quality: z.number().int().min(10).max(100).optional(),
    maxWidth: z.number().int().positive().optional(),
    maxHeight: z.number().int().positive().optional(),
  }),
  z.object({ op: z.literal('stopScreencast'), consumerId: id }),
  /** Starts encoding the session's screen into a video on the host (segments sent on `subjects.video`); a running one is kept. */
  /** `startedAt` (ms since the epoch): when the recording started, the video's time 0 (a host whose clock disagrees by more than 10 s uses its own now). */
  z.object({ op: z.literal('startVideo'), recordingId: id, startedAt: z.number().int().nonnegative().optional() }),
  /** Ends the video: ffmpeg closes it and the last segment is sent before the answer. */
  z.object({ op: z.literal('stopVideo'), recordingId: id }),
  // Apps and files (devices that have them; others answer UNSUPPORTED).
  z.object({ op: z.literal('apps'), thirdPartyOnly: z.boolean().optional() }),
  z.object({ op: z.literal('installApp'), stageId }),
  z.object({ op: z.literal('uninstallApp'), packageName: PackageName }),
  z.object({ op: z.literal('appPresence'), packageNames: z.array(PackageName).min(1).max(100) }),
  z.object({ op: z.literal('openHelper'), helper: AppHelper, packageName: PackageName.optional() }),
  /** Bytes for the device travel in chunks: begin (at most `size` bytes), chunks in order, commit (size and SHA-256 checked). */
  z.object({ op: z.literal('stageBegin'), size: z.number().int().nonnegative().max(2 ** 40), name: z.string().max(255).optional() }),
  z.object({ op: z.literal('stageChunk'), stageId, offset: z.number().int().nonnegative(), base64: z.string().max(Math.ceil(STAGE_CHUNK_BYTES / 3) * 4) }),
  z.object({ op: z.literal('stageCommit'), stageId, size: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  z.object({ op: z.literal('pushFile'), stageId, path: DevicePath }),
  /** One piece of a device file; offset 0 reads the file afresh. */
  z.object({ op: z.literal('pullFile'), path: DevicePath, offset: z.number().int().nonnegative(), length: z.number().int().min(1).max(STAGE_CHUNK_BYTES) }),
  z.object({ op: z.literal('listFiles'), path: DevicePath }),
  z.object({ op: z.literal('deleteFile'), path: DevicePath }),
  z.object({ op: z.literal('makeFolder'), path: DevicePath }),
  // Instrumentation tests (Android): started in the background, read by polling, stoppable.
  z.object({
    op: z.literal('instrumentStart'),
    testPackage: PackageName,
    /** The runner's class (`androidx.test.runner.AndroidJUnitRunner`). */
    runner: JavaName,
    targetPackage: PackageName,
    /** The tests, in the order they run; one `am instrument` launch for all, or one each with `clearPackageData`. */
    tests: z.array(TestRef).min(1).max(1_000),
    testTimeoutMs: z.number().int().min(1_000).max(3_600_000),
    clearPackageData: z.boolean().optional(),
    /** Lists the tests (`-e log true`) without running them. */
    listOnly: z.boolean().optional(),
  }),
  z.object({
    op: z.literal('instrumentPoll'),
    runId: id,
    afterSeq: z.number().int().nonnegative().optional(),
    /** When there is nothing after `afterSeq` yet, how long to wait for news before answering (a long poll). */
    waitMs: z.number().int().min(0).max(10_000).optional(),
  }),
  z.object({ op: z.literal('instrumentStop'), runId: id }),
  /** A health reading now (the agent also reads on its own schedule); `mend`: mending a device that is there but unwell, outside any session. */
  z.object({ op: z.literal('health') }),
  z.object({ op: z.literal('mend'), ...MendPlan.shape }),
  /** An administrator re-takes the device's settings baseline (what every session's end restores): outside any session. */
  z.object({ op: z.literal('retakeBaseline') }),
  /**
   * The service gives the device the baseline an administrator re-took, as its device joins (the agent's
   * memory of it does not outlive a restart): kept instead of one read from the device; in any state.
   */
  z.object({ op: z.literal('setBaseline'), ...BaselineSettings.shape }),
]);
export type AgentCommand = z.infer<typeof AgentCommand>;
export type DeviceOp = AgentCommand['op'];

/**
 * How an instrumentation run's `failure` begins when the link to the device ended with a test going on
 * (no crash reported): that test is left unfinished, for the caller to run on another device.
 */
export const INSTRUMENTATION_LINK_LOST = 'The connection to the device ended';

export const RpcRequest = z.object({
  protocol: z.literal(PROTOCOL_VERSION),
  requestId: id,
  deviceId: id,
  /** The session the request acts for; a request of another session than the device's is refused. */
  sessionId: z.string().min(1).max(128),
  /** The agent answers `fail` with TIMEOUT rather than work past this. */
  timeoutMs: z.number().int().positive().max(300_000),
  /** Publish progress replies on `subjects.progress(hostId, requestId)`. */
  progress: z.boolean().optional(),
  command: AgentCommand,
});
export type RpcRequest = z.infer<typeof RpcRequest>;

export const LogEntry = z.object({
  seq: z.number().int().nonnegative(),
  at: z.string(),
  level: z.enum(['debug', 'info', 'warn', 'error']),
  source: z.string().max(50),
  text: z.string().max(10_000),
});
export type LogEntry = z.infer<typeof LogEntry>;

/** One element of a device's UI: a DOM element for a browser device. Bounds are screenshot pixels. */
export interface UiNode {
  role: string;
  name: string;
  tag?: string;
  id?: string;
  text?: string;
  bounds: { x: number; y: number; width: number; height: number };
  children: UiNode[];
}
export const UiNode: z.ZodType<UiNode> = z.lazy(() =>
  z.object({
    role: z.string(),
    name: z.string(),
    tag: z.string().optional(),
    id: z.string().optional(),
    text: z.string().optional(),
    bounds: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
    children: z.array(UiNode),
  }),
  // Named, so a document that describes it (the OpenAPI one) refers to it by this name.
).meta({ id: 'UiNode' });

/** One element breaking one accessibility rule; bounds in screenshot pixels. */
export const AccessibilityViolation = z.object({
  ruleId: z.string(),
  impact: z.enum(['critical', 'serious', 'moderate', 'minor']),
  /** WCAG success criteria, `1.4.3` style. */
  wcag: z.array(z.string()),
  description: z.string(),
  helpUrl: z.string(),
  element: z.object({
    selector: z.string(),
    text: z.string(),
    html: z.string().nullable(),
    bounds: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
  }),
});
export type AccessibilityViolation = z.infer<typeof AccessibilityViolation>;

/** What each operation answers inside an `ok` reply. */
export const RpcResults = {
  prepare: z.object({ sessionId: z.string(), screen: Screen }),
  /** `resetFailed`: the device's reset to its baseline after the session failed, and why (the service quarantines it). */
  release: z.object({ sessionId: z.string(), resetFailed: z.string().optional() }),
  screenshot: z.object({ contentType: z.enum(['image/png', 'image/jpeg']), base64: z.string(), width: z.number(), height: z.number() }),
  control: z.object({ url: z.string().optional(), orientation: z.enum(['portrait', 'landscape']).optional() }),
  logs: z.object({ entries: z.array(LogEntry), lastSeq: z.number().int().nonnegative() }),
  uiTree: z.object({ url: z.string(), title: z.string(), root: UiNode }),
  accessibilityScan: z.object({
    /** The engine and its version (`axe-core 4.11.0`, `android-rules 1`). */
    engine: z.string(),
    url: z.string(),
    title: z.string(),
    /** What a finding's identity is relative to: the page (origin and path) or the app package. */
    scope: z.string(),
    findings: z.array(AccessibilityViolation),
  }),
  screencast: z.object({ streaming: z.boolean() }),
  stopScreencast: z.object({ streaming: z.boolean() }),
  startVideo: z.object({ recordingId: z.string(), format: z.literal('mp4') }),
  stopVideo: z.object({ recordingId: z.string(), segments: z.number().int().nonnegative(), bytes: z.number().int().nonnegative(), durationMs: z.number().int().nonnegative() }),
  apps: z.object({ apps: z.array(z.object({ packageName: z.string(), system: z.boolean() })) }),
  installApp: z.object({ packageNames: z.array(z.string()) }),
  uninstallApp: z.object({ packageName: z.string(), uninstalled: z.boolean() }),
  appPresence: z.object({ presence: z.record(z.string(), z.boolean()) }),
  openHelper: z.object({ helper: z.string(), packageName: z.string().optional() }),
  stageBegin: z.object({ stageId: z.string() }),
  stageChunk: z.object({ received: z.number().int().nonnegative() }),
  stageCommit: z.object({ stageId: z.string(), size: z.number().int().nonnegative() }),
  pushFile: z.object({ path: z.string(), size: z.number().int().nonnegative() }),
  pullFile: z.object({ path: z.string(), offset: z.number().int().nonnegative(), size: z.number().int().nonnegative(), base64: z.string(), eof: z.boolean() }),
  listFiles: z.object({
    path: z.string(),
    entries: z.array(z.object({ name: z.string(), type: z.enum(['file', 'directory', 'other']), size: z.number(), mode: z.number().int(), modifiedAt: z.string().nullable() })),
  }),
  deleteFile: z.object({ path: z.string(), deleted: z.boolean() }),
  makeFolder: z.object({ path: z.string() }),
  instrumentStart: z.object({ runId: z.string() }),
  instrumentPoll: z.object({
    events: z.array(InstrumentationEvent),
    lastSeq: z.number().int().nonnegative(),
    /** The run is over: every test finished, or it stopped early (a crash, a hang, a stop). */
    done: z.boolean(),
    /** Tests the run did not reach (after a crash or a hang), for the caller to plan again. */
    notRun: z.array(TestRef),
    /** Why it could not start or stopped early. */
    failure: z.string().optional(),
  }),
  instrumentStop: z.object({ runId: z.string(), stopped: z.boolean() }),
  health: HealthSample,
  mend: MendResult,
  retakeBaseline: BaselineSettings,
  setBaseline: BaselineSettings,
} satisfies Record<DeviceOp, z.ZodType>;
export type RpcResult<Op extends DeviceOp> = z.infer<(typeof RpcResults)[Op]>;

/** Why an agent refused or failed a request. */
export const FailCode = z.enum([
  'PROTOCOL_MISMATCH',
  'BAD_REQUEST',
  'UNKNOWN_DEVICE',
  'DEVICE_BUSY',
  'NOT_PREPARED',
  'DEVICE_ERROR',
  'TIMEOUT',
  'UNSUPPORTED',
  /** What the command names (a file, a folder, an app's container) is not on the device. */
  'NOT_FOUND',
  /** A hello without a token, with one that is not this host's, or of a revoked enrolment. */
  'HOST_TOKEN_MISSING',
  'HOST_TOKEN_INVALID',
  'HOST_REVOKED',
]);
export type FailCode = z.infer<typeof FailCode>;

/** Replies, after STF: `ok` ends a request, `fail` ends it with a reason, `progress` may come before either. */
export const Reply = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ok'), data: z.unknown() }),
  z.object({ type: z.literal('fail'), code: FailCode, message: z.string() }),
  z.object({ type: z.literal('progress'), requestId: id, step: z.string().max(200), percent: z.number().min(0).max(100).optional() }),
]);
export type Reply = z.infer<typeof Reply>;
