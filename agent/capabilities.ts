import type { Duplex } from 'node:stream';
import type { AppHelper } from '#shared/wire/index.js';
import type { ControlAction, DeviceInfo, HealthSample, MendingReport, RpcResult, Screen } from '#shared/wire/index.js';
import type { AgentCommand } from '#shared/wire/index.js';

/** The debug protocols of each platform: Android `adb`, `jdwp`, `tcp_forward`, `cdp`; iOS `usbmux`, `tcp_forward`, `lldb_rsp`, `webkit_inspector`, `cdp`. */
export const DEBUG_PROTOCOLS = ['adb', 'jdwp', 'tcp_forward', 'cdp', 'usbmux', 'lldb_rsp', 'webkit_inspector'] as const;
export type DebugProtocol = (typeof DEBUG_PROTOCOLS)[number];

/** Something a debugger can attach to on a device. `id` is what `openDebugStream` takes as its target. */
export interface DebugTarget {
  id: string;
  kind: 'process' | 'webview' | 'page' | 'device';
  title: string;
  pid?: number;
  package?: string;
  protocol: DebugProtocol;
}

/** A captured image of a device's screen. */
export interface Screenshot {
  contentType: 'image/png' | 'image/jpeg';
  data: Buffer;
  width: number;
  height: number;
}

/** A screencast frame as a driver produces it (JPEG). */
export interface DriverFrame {
  jpeg: Buffer;
  width: number;
  height: number;
  capturedAt: number;
}

export interface ScreencastOptions {
  quality: number;
  maxWidth?: number;
  maxHeight?: number;
}

/** What a release says beyond "done": a reset to the device's baseline that failed. */
export interface ReleaseOutcome {
  resetFailed?: string;
}

/**
 * What every device does: a session's life cycle. `prepare` gives a clean device (a fresh profile for a
 * browser); `release` tears the session's state down. A worker calls a driver one command at a time.
 */
export interface LifecycleCapability {
  readonly info: DeviceInfo;
  prepare(onProgress: (step: string) => void): Promise<Screen>;
  /** Answers, where the device was reset to a baseline after the session and that failed, why (the service quarantines it). */
  release(): Promise<void | ReleaseOutcome>;
  /** Called when the device breaks outside a command (a browser that crashed). */
  onBroken(listener: (reason: string) => void): void;
  close(): Promise<void>;
}

/** Seeing the screen: stills and a stream of frames. */
export interface ScreenCapability {
  screenshot(format: 'png' | 'jpeg', quality?: number): Promise<Screenshot>;
  /** Streams frames to `onFrame`; the next frame is produced only after `onFrame` settles (back-pressure). */
  startScreencast(options: ScreencastOptions, onFrame: (frame: DriverFrame) => Promise<void>): Promise<void>;
  stopScreencast(): Promise<void>;
}

/** Driving the device: touches, keys, text, navigation. */
export interface InputCapability {
  control(action: ControlAction): Promise<RpcResult<'control'>>;
}

/** The device's log, numbered so readers ask for what came after. */
export interface LogsCapability {
  logs(afterSeq: number): RpcResult<'logs'>;
}

/** The screen's structure, and (optional) its accessibility findings. */
export interface UiCapability {
  uiTree(): Promise<RpcResult<'uiTree'>>;
  /** Accessibility findings of the current screen; a device without an engine answers UNSUPPORTED. */
  accessibilityScan?(): Promise<RpcResult<'accessibilityScan'>>;
}

/** Automation endpoints for the session's clients (DevTools, WebDriver). Optional. */
export interface AutomationCapability {
  /**
   * A loopback TCP endpoint speaking Chrome's DevTools protocol (HTTP `/json/*` and WebSocket) for this
   * device: the browser device's own Chromium; Chrome or a WebView on Android through `adb forward`.
   * Only while the device is prepared for a session; null when the device has no such target.
   */
  devtools?(): Promise<{ host: string; port: number } | null>;
  /**
   * Capabilities that make the agent's Appium server drive this device (automation name, udid,
   * `goog:chromeOptions.debuggerAddress`, ...), merged over what the WebDriver client asked for.
   */
  webdriverCapabilities?(): Promise<Record<string, unknown>>;
}

/** Apps: optional; a device without them answers UNSUPPORTED. Local paths are files on the agent's machine. */
export interface AppsCapability {
  /** Installed packages. */
  listApps?(thirdPartyOnly: boolean): Promise<RpcResult<'apps'>['apps']>;
  /** Installs the APK at `localPath`; answers the packages that appeared. */
  installApp?(localPath: string): Promise<RpcResult<'installApp'>>;
  uninstallApp?(packageName: string): Promise<RpcResult<'uninstallApp'>>;
  appPresence?(packageNames: string[]): Promise<RpcResult<'appPresence'>>;
  openHelper?(helper: AppHelper, packageName?: string): Promise<RpcResult<'openHelper'>>;
}

/** Files: optional. Local paths are staged uploads and pulled downloads; device paths are absolute and checked. */
export interface FilesCapability {
  pushFile?(localPath: string, devicePath: string): Promise<RpcResult<'pushFile'>>;
  /** Copies a device file to `localPath`; answers its size. */
  pullFile?(devicePath: string, localPath: string): Promise<{ size: number }>;
  listFiles?(devicePath: string): Promise<RpcResult<'listFiles'>>;
  deleteFile?(devicePath: string): Promise<RpcResult<'deleteFile'>>;
  makeFolder?(devicePath: string): Promise<RpcResult<'makeFolder'>>;
}

/** Debugging: optional; a device without it offers no debug protocol. */
export interface DebugCapability {
  /** The debug protocols this device offers right now. */
  debugProtocols?(): Promise<DebugProtocol[]>;
  /** What can be attached now: JDWP processes, DevTools sockets, WebKit inspector pages. */
  debugTargets?(): Promise<DebugTarget[]>;
  /**
   * One raw byte stream to the device end of `protocol`: `adb` the device's whole adbd transport,
   * `jdwp` a process (`target` = pid), `tcp_forward` a device TCP port (`target` = port), `cdp` a
   * DevTools socket (`target` = socket name, default the browser's), `usbmux` a usbmuxd endpoint that
   * shows only this device, `lldb_rsp` debugserver, `webkit_inspector` the inspector service. Refuses
   * with a DriverError (BAD_REQUEST for a bad target, UNSUPPORTED for a protocol it lacks).
   */
  openDebugStream?(protocol: DebugProtocol, target: string | undefined): Promise<Duplex>;
  /** A command that gives an interactive shell on the device when run in a pseudo-terminal, or null. */
  shellCommand?(): { file: string; args: string[] } | null;
}

/**
 * Instrumentation tests (Android's `am instrument`): optional. A run goes on in the background while the
 * device answers other commands (its screen, its logs); its events are read by polling.
 */
export interface TestsCapability {
  /** Starts a run of the command's tests; answers its id. DEVICE_BUSY while another run goes on. */
  startInstrumentation?(command: Extract<AgentCommand, { op: 'instrumentStart' }>): RpcResult<'instrumentStart'>;
  /**
   * The run's events after `afterSeq`, whether it is over, and what it did not reach; with nothing new
   * yet, answered when news comes or after `waitMs`. NOT_FOUND for an unknown run.
   */
  pollInstrumentation?(runId: string, afterSeq: number, waitMs?: number): Promise<RpcResult<'instrumentPoll'>>;
  /** Stops the run (the app's process force-stopped); what had not finished is reported as not run. */
  stopInstrumentation?(runId: string): Promise<RpcResult<'instrumentStop'>>;
}

/**
 * Health signals (battery, temperature, free storage, thermal state, airplane mode; on iOS the version and
 * whether WebDriverAgent answers): optional. Read by the worker on the agent's schedule
 * (`healthIntervalMs`) and at each session's end, and on request.
 */
export interface HealthCapability {
  /** One reading; a signal the device does not report is left out. */
  readHealth?(): Promise<HealthSample>;
  /**
   * Mends a device that is there but unwell, outside any session (docs/modules/device-health.md,
   * "Mending"): the steps in order, each told to `begin` as it starts and to `report` as it ends; answers
   * them and whether it is well.
   */
  mend?(plan: { storageMinMb: number; rebootAllowed: boolean; helpersOnly?: boolean }, report: (step: MendingReport) => void, begin?: (step: MendingReport['step']) => void): Promise<RpcResult<'mend'>>;
}

/**
 * The clean device's baseline (the settings every session's end puts back): optional. A device without it
 * answers `UNSUPPORTED` to an administrator who asks to re-take it.
 */
export interface BaselineCapability {
  /** Reads the settings now and keeps them as the baseline; answers what it keeps. Outside any session. */
  retakeBaseline?(): Promise<RpcResult<'retakeBaseline'>>;
  /** Keeps the given settings as the baseline (the one an administrator re-took, given back after a restart); answers what it keeps. */
  setBaseline?(settings: Record<string, string | null>): Promise<RpcResult<'setBaseline'>>;
}

/**
 * One device as a provider drives it: the capabilities every device has (life cycle, screen, input,
 * logs, UI) and the optional ones (automation endpoints, apps, files, debugging, tests, health, baseline), whose methods a
 * device may lack — the agent's operation table (`agent/ops/`) answers UNSUPPORTED for those in one place.
 */
export type DeviceDriver = LifecycleCapability &
  ScreenCapability &
  InputCapability &
  LogsCapability &
  UiCapability &
  AutomationCapability &
  AppsCapability &
  FilesCapability &
  DebugCapability &
  TestsCapability &
  HealthCapability &
  BaselineCapability;

