import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogEntry, MendingReport, RpcResult } from '#shared/wire/index.js';

export {
  DEBUG_PROTOCOLS,
  type AppsCapability,
  type AutomationCapability,
  type DebugCapability,
  type DebugProtocol,
  type DebugTarget,
  type DeviceDriver,
  type DriverFrame,
  type FilesCapability,
  type HealthCapability,
  type InputCapability,
  type LifecycleCapability,
  type LogsCapability,
  type ScreencastOptions,
  type ScreenCapability,
  type Screenshot,
  type TestsCapability,
  type UiCapability,
} from './capabilities.js';
import type { DeviceDriver } from './capabilities.js';

/** Tells the host which devices exist; a provider may add and remove devices at any time. */
export interface DeviceListener {
  added(driver: DeviceDriver): void;
  removed(deviceId: string): void;
  /** One mending step the provider ran on a device (reconnecting its lost link) and its result. */
  mending?(deviceId: string, step: MendingReport): void;
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
  private readonly watchers = new Set<(entry: LogEntry) => void>();

  constructor(private readonly capacity = 2_000) {}

  /** Appends one entry, dropping the oldest beyond capacity. */
  push(level: LogEntry['level'], source: string, text: string, at = new Date()): void {
    this.seq += 1;
    const entry = { seq: this.seq, at: at.toISOString(), level, source, text: text.slice(0, 10_000) };
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
    for (const watcher of this.watchers) watcher(entry);
  }

  /** Calls `watcher` with each entry appended from now on; returns the function that stops it. */
  watch(watcher: (entry: LogEntry) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
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
    readonly code: 'BAD_REQUEST' | 'NOT_FOUND' | 'DEVICE_ERROR' | 'DEVICE_BUSY' | 'NOT_PREPARED' | 'UNSUPPORTED',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DriverError';
  }
}

/**
 * The refusal of a control action no case handles. A driver's switch passes its action here in its
 * `default`, where the type is `never` once every kind is handled: a new kind fails to compile.
 */
export function unknownAction(action: never): DriverError {
  return new DriverError('BAD_REQUEST', `Unknown action ${JSON.stringify(action)}`);
}

/**
 * Bytes on their way to or from a device, kept in files on the agent's machine: uploads arrive in
 * chunks (in order, size and SHA-256 checked at commit), downloads are pulled once and read in pieces.
 * One area per device; `clear` drops everything (at release).
 */
export class StagingArea {
  private readonly staged = new Map<string, { path: string; size: number; received: number; hash: ReturnType<typeof createHash>; committed: boolean }>();
  private readonly pulls = new Map<string, { path: string; size: number }>();
  private readonly dir: string;

  constructor(deviceId: string, root = tmpdir()) {
    this.dir = join(root, `df-staging-${deviceId}-${randomUUID().slice(0, 8)}`);
  }

  /** Starts an upload of at most `size` bytes (itself at most `maxBytes`). */
  async begin(size: number, maxBytes: number): Promise<string> {
    if (size > maxBytes) throw new DriverError('BAD_REQUEST', `The file is larger than ${maxBytes} bytes`);
    await mkdir(this.dir, { recursive: true });
    const stageId = randomUUID();
    const path = join(this.dir, `${stageId}.upload`);
    await (await open(path, 'w')).close();
    this.staged.set(stageId, { path, size, received: 0, hash: createHash('sha256'), committed: false });
    return stageId;
  }

  /** Appends the next chunk; chunks must come in order. */
  async chunk(stageId: string, offset: number, data: Buffer): Promise<number> {
    const stage = this.upload(stageId);
    if (stage.committed) throw new DriverError('BAD_REQUEST', 'The upload is already committed');
    if (offset !== stage.received) throw new DriverError('BAD_REQUEST', `Expected the chunk at offset ${stage.received}, got ${offset}`);
    if (stage.received + data.length > stage.size) throw new DriverError('BAD_REQUEST', `More than the announced ${stage.size} bytes`);
    const file = await open(stage.path, 'a');
    try {
      await file.write(data);
    } finally {
      await file.close();
    }
    stage.hash.update(data);
    stage.received += data.length;
    return stage.received;
  }

  /** Checks the whole upload; afterwards `take` hands its file to a device operation. */
  commit(stageId: string, size: number, sha256: string): void {
    const stage = this.upload(stageId);
    if (stage.received !== size) throw new DriverError('BAD_REQUEST', `Received ${stage.received} bytes, not ${size}`);
    const digest = stage.hash.digest('hex');
    if (digest !== sha256) throw new DriverError('BAD_REQUEST', 'The upload does not match its SHA-256');
    stage.committed = true;
  }

  /** The local file of a committed upload; `done` deletes it. */
  take(stageId: string): { path: string; size: number; done: () => Promise<void> } {
    const stage = this.upload(stageId);
    if (!stage.committed) throw new DriverError('BAD_REQUEST', 'The upload is not committed');
    this.staged.delete(stageId);
    return { path: stage.path, size: stage.size, done: () => rm(stage.path, { force: true }) };
  }

  /**
   * One piece of a device file: offset 0 pulls the file afresh through `pull`, later offsets read the
   * pulled copy; the copy is dropped after its last piece.
   */
  async read(devicePath: string, offset: number, length: number, pull: (localPath: string) => Promise<{ size: number }>): Promise<RpcResult<'pullFile'>> {
    let cached = this.pulls.get(devicePath);
    if (offset === 0 || !cached) {
      if (cached) await rm(cached.path, { force: true });
      if (offset !== 0) throw new DriverError('BAD_REQUEST', 'Start reading a file at offset 0');
      await mkdir(this.dir, { recursive: true });
      const path = join(this.dir, `${randomUUID()}.download`);
      const { size } = await pull(path);
      cached = { path, size: (await stat(path)).size ?? size };
      this.pulls.set(devicePath, cached);
    }
    const file = await open(cached.path, 'r');
    let data: Buffer;
    try {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, cached.size - offset)));
      const { bytesRead } = await file.read(buffer, 0, buffer.length, offset);
      data = buffer.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
    const eof = offset + data.length >= cached.size;
    if (eof) {
      this.pulls.delete(devicePath);
      await rm(cached.path, { force: true });
    }
    return { path: devicePath, offset, size: cached.size, base64: data.toString('base64'), eof };
  }

  /** Drops every upload and download. */
  async clear(): Promise<void> {
    this.staged.clear();
    this.pulls.clear();
    await rm(this.dir, { recursive: true, force: true });
  }

  private upload(stageId: string) {
    const stage = this.staged.get(stageId);
    if (!stage) throw new DriverError('BAD_REQUEST', `No upload ${stageId}`);
    return stage;
  }
}
