import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import type { MessageBus } from '#shared/bus/index.js';
import { decode, Reply, subjects } from '#shared/wire/index.js';
import { DriverError } from '../provider.js';
import { VideoEncoder, type EncodedVideo, type VideoSegment } from './encoder.js';
import type { VideoSettings } from './settings.js';

const SEGMENT_TIMEOUT_MS = 10_000;
const SEGMENT_TRIES = 3;

/** The headers a video segment travels with (the body is its bytes). */
export interface VideoSegmentHeaders {
  sessionId: string;
  recordingId: string;
  seq: string;
  final: '0' | '1';
  durationMs: string;
}

/**
 * A device's session video: one encoder at a time, fed the frames the device's screen stream already
 * produces (they never cross the bus for it), its segments sent to the service as they are cut
 * (`subjects.video`, a request each: the service stores it, then answers).
 */
export class DeviceVideo {
  private running: { sessionId: string; recordingId: string; encoder: VideoEncoder } | null = null;

  constructor(
    private readonly deps: { bus: MessageBus; hostId: string; deviceId: () => string; logger: Logger; settings: VideoSettings | undefined },
  ) {}

  /** Whether a video wants the screen's frames now. */
  get active(): boolean {
    return this.running !== null;
  }

  /** Starts the session's video; the same recording running already is kept, another one is finished first. */
  async start(sessionId: string, recordingId: string, startedAt?: number): Promise<void> {
    const settings = this.deps.settings;
    if (!settings?.enabled) throw new DriverError('UNSUPPORTED', 'Videos are turned off on this host');
    if (!existsSync(settings.ffmpegPath)) throw new DriverError('UNSUPPORTED', `Videos need ffmpeg on the host (none at ${settings.ffmpegPath})`);
    if (this.running?.recordingId === recordingId && this.running.sessionId === sessionId) return;
    await this.finish();
    const encoder = new VideoEncoder(
      settings,
      (segment) => this.send(sessionId, recordingId, segment),
      (err) => this.deps.logger.warn({ err, sessionId, recordingId, ffmpeg: this.running?.encoder.diagnostics }, 'the session video had a failure'),
      startedAt,
    );
    this.running = { sessionId, recordingId, encoder };
  }

  /** A frame of the screen (JPEG). */
  frame(jpeg: Buffer): void {
    this.running?.encoder.frame(jpeg);
  }

  /** Ends the running video (of `recordingId`, when named); answers what it came to, or null when none ran. */
  async finish(recordingId?: string): Promise<(EncodedVideo & { recordingId: string }) | null> {
    const running = this.running;
    if (!running || (recordingId !== undefined && running.recordingId !== recordingId)) return null;
    this.running = null;
    const done = await running.encoder.finish();
    if (done.exitCode !== 0) this.deps.logger.warn({ sessionId: running.sessionId, exitCode: done.exitCode, ffmpeg: running.encoder.diagnostics }, 'ffmpeg did not end the session video cleanly');
    return { ...done, recordingId: running.recordingId };
  }

  private async send(sessionId: string, recordingId: string, segment: VideoSegment): Promise<void> {
    const headers: VideoSegmentHeaders & Record<string, string> = { sessionId, recordingId, seq: String(segment.seq), final: segment.final ? '1' : '0', durationMs: String(segment.durationMs) };
    let lastError: unknown = null;
    for (let attempt = 1; attempt <= SEGMENT_TRIES; attempt++) {
      try {
        const reply = decode(Reply, (await this.deps.bus.request(subjects.video(this.deps.hostId, this.deps.deviceId()), segment.data, { timeoutMs: SEGMENT_TIMEOUT_MS, headers })).data);
        if (reply.type === 'ok') return;
        // A refusal (the session is over, the segment is not this host's to store) is final.
        this.deps.logger.warn({ sessionId, recordingId, seq: segment.seq, reply }, 'a video segment was refused');
        return;
      } catch (err) {
        lastError = err;
      }
    }
    throw lastError;
  }
}
