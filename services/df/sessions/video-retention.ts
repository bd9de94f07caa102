import { sessionById, sessionsWithVideosBefore } from '#projections/df-sessions/index.js';
import { videoRetentions } from '#projections/df-settings/index.js';
import { sessionBlobFolder } from '../core/blob-keys.js';
import { PeriodicJob } from '../core/periodic.js';
import { UNTRACED, type Tick } from '#shared/tracing/index.js';
import type { SessionDeps } from './deps.js';
import type { SessionWrites } from './writes.js';

const DAY_MS = 86_400_000;
/**
 * How often the retention is applied: a video goes at most this long after its time is up, against a
 * retention counted in days; each sweep reads the settings and the sessions on every replica.
 */
export const VIDEO_RETENTION_SWEEP_MS = 60_000;
/** Sessions whose videos one sweep removes per workspace at most (the next sweep takes the rest). */
const BATCH = 100;

/**
 * Session videos kept for the workspace's `videoRetentionDays` (its session defaults), counted from
 * when each was stored on the platform's clock: older ones are removed from the blob store (so the
 * company's storage quota no longer counts them) and the session records that its video expired
 * (`DeviceSessionVideoExpired`). Every replica sweeps; removing twice changes nothing.
 */
export class VideoRetention {
  private readonly job = new PeriodicJob(
    'video-retention',
    (tick) => this.sweep(tick),
    (err) => this.deps.logger.warn({ err }, 'the video retention sweep failed'),
  );

  constructor(
    private readonly deps: Pick<SessionDeps, 'db' | 'blobs' | 'logger' | 'now'>,
    private readonly writes: SessionWrites,
  ) {}

  start(): void {
    this.job.start(VIDEO_RETENTION_SWEEP_MS);
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /** Removes the videos whose time is up, in every workspace that limits it. */
  async sweep(tick: Tick = UNTRACED): Promise<void> {
    const now = this.deps.now().getTime();
    for (const { workspaceId, days } of await videoRetentions(this.deps.db)) {
      for (const { sessionId, companyId } of await sessionsWithVideosBefore(this.deps.db, workspaceId, new Date(now - days * DAY_MS), BATCH)) {
        // A recording under way writes into the same folder: its session waits for a later sweep.
        if ((await sessionById(this.deps.db, sessionId))?.recording.recordingId) continue;
        tick.count('videos.expired');
        await tick.work(async () => {
          await this.deps.blobs.deleteFolder(`${sessionBlobFolder(companyId, sessionId)}/videos`);
          await this.writes.runAs({ type: 'ExpireVideo', sessionId, retentionDays: days }, { actor: 'system', companyId, workspaceId });
          this.deps.logger.info({ sessionId, days }, 'a session video expired');
        });
      }
    }
  }
}
