import type { Logger } from 'pino';
import type { BlobStore } from '#shared/blob/index.js';
import type { BusSubscription } from '#shared/bus/index.js';
import type { DeviceTarget, Frame } from '#shared/wire/index.js';

export interface RecordedFrame {
  index: number;
  at: string;
  key: string;
  size: number;
}

export interface Recording {
  recordingId: string;
  startedAt: string;
  frames: RecordedFrame[];
  bytes: number;
  lastStoredAt: number;
  /**
   * The newest frame that came sooner than the rate allows, kept when its turn comes: the last
   * picture of a burst of changes is the one the screen stays at, so it must be in the recording.
   */
  pending: Frame | null;
  pendingTimer: NodeJS.Timeout | null;
  truncated: boolean;
  /**
   * Whether the screen's JPEG frames are kept: only when the device's host cannot encode a video (no
   * ffmpeg), so the frames cross the bus for the recording only then.
   */
  keepFrames: boolean;
  writes: Promise<void>;
  /** Pending write of the manifest (frames so far) to the blob store. */
  flush: NodeJS.Timeout | null;
  /** Answers other replicas' requests to stop this recording. */
  stopSubscription: BusSubscription | null;
  /** Answers other replicas asking whether this recording still runs somewhere. */
  pingSubscription: BusSubscription | null;
  /**
   * Stopped here but not yet finished (its video joined, its end recorded): the subscriptions still
   * answer, so no replica takes the recording for one whose replica is gone and finishes it a second time.
   */
  stopping: boolean;
}

/** A recording's manifest as kept in the blob store: written while it runs (each second) and at its end. */
export interface RecordingManifest {
  recordingId: string;
  startedAt: string;
  truncated: boolean;
  bytes: number;
  frames: { index: number; at: string; size: number }[];
}

// Recordings keep at most 5 frames a second and 3,000 frames (10 minutes at full rate).
const RECORD_MIN_INTERVAL_MS = 200;
const RECORD_MAX_FRAMES = 3_000;

const MANIFEST_FLUSH_MS = 1_000;

/** Where a running recording's manifest lives in blob storage (any replica reads it). */
export const recordingManifestKey = (companyId: number, sessionId: string, recordingId: string) =>
  `df/company-${companyId}/sessions/${sessionId}/recordings/${recordingId}/manifest.json`;

/** Another replica asks the one recording a session to stop it (only that replica answers). */
export const recordingStopSubject = (sessionId: string) => `df.service.recording.${sessionId}.stop`;

/**
 * Another replica asks whether any replica still records the session: the recording one answers, and
 * a bus with nobody subscribed says at once that none does (the replica stopped or crashed).
 */
export const recordingPingSubject = (sessionId: string) => `df.service.recording.${sessionId}.ping`;

/** Where a recording's frames live in blob storage. */
export const recordingFrameKey = (companyId: number, sessionId: string, recordingId: string, index: number) =>
  `df/company-${companyId}/sessions/${sessionId}/recordings/${recordingId}/${index}.jpg`;

/** Stops answering for a recording (stop requests and pings). */
export async function unsubscribeRecording(r: Recording): Promise<void> {
  await Promise.all([r.stopSubscription?.unsubscribe(), r.pingSubscription?.unsubscribe()].map((p) => p?.catch(() => undefined)));
}

/** A recording just started, nothing kept yet. */
export function newRecording(recordingId: string, now: Date): Recording {
  return {
    recordingId,
    startedAt: now.toISOString(),
    frames: [],
    bytes: 0,
    lastStoredAt: 0,
    pending: null,
    pendingTimer: null,
    truncated: false,
    keepFrames: false,
    stopping: false,
    writes: Promise.resolve(),
    flush: null,
    stopSubscription: null,
    pingSubscription: null,
  };
}

/** Where a recording is made: the live session and the recording it runs now (a write for another one is dropped). */
export interface RecordingSite {
  target: DeviceTarget;
  companyId: number;
  recording: Recording | null;
}

/** Stores a session's recorded frames and its manifest in the blob store, writes chained in order. */
export class RecordingWriter {
  constructor(private readonly deps: { blobs: BlobStore; logger: Logger }) {}

  /** The manifest of a recording as last written to the blob store, or null. */
  async storedManifest(companyId: number, sessionId: string, recordingId: string): Promise<RecordingManifest | null> {
    const blob = await this.deps.blobs.get(recordingManifestKey(companyId, sessionId, recordingId));
    if (!blob) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of blob.stream) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordingManifest;
  }

  /** Queues a write of the recording's manifest after the frames counted so far are stored. */
  writeManifest(live: RecordingSite, r: Recording): void {
    const manifest: RecordingManifest = {
      recordingId: r.recordingId,
      startedAt: r.startedAt,
      truncated: r.truncated,
      bytes: r.bytes,
      frames: r.frames.map(({ index, at, size }) => ({ index, at, size })),
    };
    r.writes = r.writes.then(() =>
      this.deps.blobs
        .put(recordingManifestKey(live.companyId, live.target.sessionId, r.recordingId), Buffer.from(JSON.stringify(manifest)), { contentType: 'application/json' })
        .then(() => undefined)
        .catch((err: unknown) => this.deps.logger.warn({ err, sessionId: live.target.sessionId }, 'storing a recording manifest failed')),
    );
  }

  /** A frame of the session: kept when a recording runs, at most 5 a second (the last of a burst kept when its turn comes). */
  offer(live: RecordingSite, frame: Frame): void {
    const r = live.recording;
    if (!r || r.truncated || !r.keepFrames) return;
    const wait = RECORD_MIN_INTERVAL_MS - (frame.capturedAt - r.lastStoredAt);
    if (wait <= 0) {
      this.keepFrame(live, r, frame);
      return;
    }
    r.pending = frame;
    r.pendingTimer ??= setTimeout(() => {
      r.pendingTimer = null;
      if (live.recording === r) this.keepPending(live, r);
    }, wait);
    r.pendingTimer.unref();
  }

  /** Keeps the frame held back by the rate, if any (its turn came, or the recording stops). */
  keepPending(live: RecordingSite, r: Recording): void {
    if (r.pendingTimer) clearTimeout(r.pendingTimer);
    r.pendingTimer = null;
    const frame = r.pending;
    r.pending = null;
    if (frame && !r.truncated) this.keepFrame(live, r, frame);
  }

  private keepFrame(live: RecordingSite, r: Recording, frame: Frame): void {
    r.pending = null;
    if (r.frames.length >= RECORD_MAX_FRAMES) {
      r.truncated = true;
      return;
    }
    r.lastStoredAt = frame.capturedAt;
    const entry: RecordedFrame = {
      index: r.frames.length,
      at: new Date(frame.capturedAt).toISOString(),
      key: recordingFrameKey(live.companyId, live.target.sessionId, r.recordingId, r.frames.length),
      size: frame.jpeg.byteLength,
    };
    r.frames.push(entry);
    r.bytes += entry.size;
    // Writes are chained so the recording's stop waits for every frame it has counted.
    r.writes = r.writes.then(() =>
      this.deps.blobs
        .put(entry.key, Buffer.from(frame.jpeg), { contentType: 'image/jpeg' })
        .then(() => undefined)
        .catch((err: unknown) => this.deps.logger.warn({ err, sessionId: live.target.sessionId }, 'storing a recorded frame failed')),
    );
    r.flush ??= setTimeout(() => {
      r.flush = null;
      if (live.recording === r) this.writeManifest(live, r);
    }, MANIFEST_FLUSH_MS);
    r.flush.unref();
  }
}
