import type { ControlAction, DeviceInfo, LogEntry, RpcResult, Screen } from '#shared/wire/index.js';

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

/**
 * One device as a provider drives it. A worker calls it one command at a time. `prepare` gives a
 * clean device (a fresh profile for a browser); `release` tears the session's state down.
 */
export interface DeviceDriver {
  readonly info: DeviceInfo;
  prepare(onProgress: (step: string) => void): Promise<Screen>;
  release(): Promise<void>;
  screenshot(format: 'png' | 'jpeg', quality?: number): Promise<Screenshot>;
  control(action: ControlAction): Promise<RpcResult<'control'>>;
  logs(afterSeq: number): RpcResult<'logs'>;
  uiTree(): Promise<RpcResult<'uiTree'>>;
  /** Streams frames to `onFrame`; the next frame is produced only after `onFrame` settles (back-pressure). */
  startScreencast(options: ScreencastOptions, onFrame: (frame: DriverFrame) => Promise<void>): Promise<void>;
  stopScreencast(): Promise<void>;
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
  /** Called when the device breaks outside a command (a browser that crashed). */
  onBroken(listener: (reason: string) => void): void;
  close(): Promise<void>;
}

/** Tells the host which devices exist; a provider may add and remove devices at any time. */
export interface DeviceListener {
  added(driver: DeviceDriver): void;
  removed(deviceId: string): void;
}

/** A source of devices (browser, later Android through adb and iOS through usbmuxd). */
export interface DeviceProvider {
  readonly name: string;
  start(listener: DeviceListener): Promise<void>;
  stop(): Promise<void>;
}

/** A bounded ring of log entries, numbered so readers can ask for what came after. */
export class LogRing {
  private entries: LogEntry[] = [];
  private seq = 0;

  constructor(private readonly capacity = 2_000) {}

  /** Appends one entry, dropping the oldest beyond capacity. */
  push(level: LogEntry['level'], source: string, text: string, at = new Date()): void {
    this.seq += 1;
    this.entries.push({ seq: this.seq, at: at.toISOString(), level, source, text: text.slice(0, 10_000) });
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  /** Entries after `afterSeq`. */
  after(afterSeq: number): RpcResult<'logs'> {
    return { entries: this.entries.filter((e) => e.seq > afterSeq), lastSeq: this.seq };
  }

  clear(): void {
    this.entries = [];
  }
}

/** A driver's refusal or failure, with the wire code the worker replies with. */
export class DriverError extends Error {
  constructor(
    readonly code: 'BAD_REQUEST' | 'DEVICE_ERROR' | 'NOT_PREPARED' | 'UNSUPPORTED',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DriverError';
  }
}
