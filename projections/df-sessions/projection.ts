import { erasedValue } from '#shared/pii/index.js';
import type { SessionEvent } from '#events/df/sessions.js';
import { SESSION_EVENT_TYPES } from '#events/df/sessions.js';
import type { Sql } from '#shared/db/index.js';
import type { RecordedEvent } from '#shared/es/index.js';
import { applyByType, type Projection } from '../types.js';

/** Sessions, their activity timeline and their artifacts. */
export const dfSessionsProjection: Projection = {
  name: 'df-sessions',
  // 2: when a video was stored and when it expired. 4: every recording's video (df_session_videos).
  version: 4,
  eventTypes: SESSION_EVENT_TYPES,
  schema: `
    CREATE TABLE IF NOT EXISTS df_sessions (
      session_id text PRIMARY KEY,
      device_id text NOT NULL,
      host_id text NOT NULL,
      device_name text NOT NULL,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      owner_id integer NOT NULL,
      name text NOT NULL,
      type text NOT NULL,
      status text NOT NULL,
      build_name text,
      metadata jsonb NOT NULL DEFAULT '{}',
      notes text NOT NULL DEFAULT '',
      screen jsonb,
      started_at timestamptz NOT NULL,
      ready_at timestamptz,
      ended_at timestamptz,
      end_reason text,
      last_activity_at timestamptz NOT NULL,
      recording_id text,
      recording_started_at timestamptz,
      recording_frames integer,
      recording_artifact_id text,
      deleted boolean NOT NULL DEFAULT false
    );
    -- Added later; no event before it sets them, so an existing table needs no rebuild.
    ALTER TABLE df_sessions ADD COLUMN IF NOT EXISTS outcome text;
    ALTER TABLE df_sessions ADD COLUMN IF NOT EXISTS outcome_reason text;
    ALTER TABLE df_sessions ADD COLUMN IF NOT EXISTS video_recording_id text;
    ALTER TABLE df_sessions ADD COLUMN IF NOT EXISTS video_format text;
    ALTER TABLE df_sessions ADD COLUMN IF NOT EXISTS video_duration_ms bigint;
    ALTER TABLE df_sessions ADD COLUMN IF NOT EXISTS video_bytes bigint;
    ALTER TABLE df_sessions ADD COLUMN IF NOT EXISTS video_stored_at timestamptz;
    ALTER TABLE df_sessions ADD COLUMN IF NOT EXISTS video_expired_at timestamptz;
    CREATE INDEX IF NOT EXISTS df_sessions_workspace ON df_sessions (workspace_id, started_at DESC);
    CREATE INDEX IF NOT EXISTS df_sessions_company_status ON df_sessions (company_id, status);
    CREATE INDEX IF NOT EXISTS df_sessions_device ON df_sessions (device_id, status);
    -- Version 3: who wrote the notes last (an erasure rewrites theirs).
    ALTER TABLE df_sessions ADD COLUMN IF NOT EXISTS notes_by integer;
    CREATE TABLE IF NOT EXISTS df_session_activities (
      event_id uuid PRIMARY KEY,
      session_id text NOT NULL,
      activity_id text NOT NULL,
      kind text NOT NULL,
      detail jsonb NOT NULL,
      actor_id text,
      at timestamptz NOT NULL,
      position bigint NOT NULL
    );
    CREATE INDEX IF NOT EXISTS df_session_activities_session ON df_session_activities (session_id, position);
    CREATE TABLE IF NOT EXISTS df_session_artifacts (
      artifact_id text PRIMARY KEY,
      session_id text NOT NULL,
      type text NOT NULL,
      name text NOT NULL,
      blob_key text NOT NULL,
      content_type text NOT NULL,
      size bigint NOT NULL,
      created_at timestamptz NOT NULL
    );
    CREATE INDEX IF NOT EXISTS df_session_artifacts_session ON df_session_artifacts (session_id, created_at);
    -- Version 4: one row per recording that produced a video, from when the recording started.
    CREATE TABLE IF NOT EXISTS df_session_videos (
      session_id text NOT NULL,
      recording_id text NOT NULL,
      started_at timestamptz NOT NULL,
      format text NOT NULL,
      duration_ms bigint NOT NULL,
      bytes bigint NOT NULL,
      stored_at timestamptz NOT NULL,
      expired_at timestamptz,
      PRIMARY KEY (session_id, recording_id)
    );
    CREATE TABLE IF NOT EXISTS df_session_debug_grants (
      session_id text NOT NULL,
      user_id integer NOT NULL,
      protocol text NOT NULL,
      granted_at timestamptz NOT NULL,
      PRIMARY KEY (session_id, user_id, protocol)
    );`,
  tables: ['df_sessions', 'df_session_activities', 'df_session_artifacts', 'df_session_videos', 'df_session_debug_grants'],
  // Notes an erased person wrote last read as erased; the sessions stay.
  erasePerson: async (tx, userId) => {
    await tx.query(`UPDATE df_sessions SET notes = $2 WHERE notes_by = $1`, [userId, erasedValue('text', '')]);
  },
  apply: applyByType<SessionEvent>({
    DeviceSessionRequested: async (tx, { payload: p }, at, recorded) => {
      const id = p.sessionId;
      await tx.query(
        `INSERT INTO df_sessions (session_id, device_id, host_id, device_name, company_id, workspace_id, owner_id, name, type, status,
           build_name, metadata, started_at, last_activity_at)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,'starting',$10,$11,$12,$12) ON CONFLICT (session_id) DO NOTHING`,
        [id, p.deviceId, p.hostId, p.deviceName, p.companyId, p.workspaceId, p.ownerId, p.name, p.type, p.buildName, JSON.stringify(p.metadata), at],
      );
      await activity(tx, recorded, id, `${id}-requested`, 'lifecycle', { event: 'requested' });
    },
    DeviceSessionStarted: async (tx, { payload: p }, at, recorded) => {
      const id = p.sessionId;
      await tx.query(`UPDATE df_sessions SET status = 'active', ready_at = $2, screen = $3, last_activity_at = $2 WHERE session_id = $1`, [id, at, JSON.stringify(p.screen)]);
      await activity(tx, recorded, id, `${id}-started`, 'lifecycle', { event: 'started' });
    },
    DeviceSessionFailed: async (tx, { payload: p }, at, recorded) => {
      const id = p.sessionId;
      await tx.query(`UPDATE df_sessions SET status = 'failed', ended_at = $2, end_reason = $3 WHERE session_id = $1`, [id, at, p.reason]);
      await activity(tx, recorded, id, `${id}-failed`, 'lifecycle', { event: 'failed', code: p.code, reason: p.reason });
    },
    DeviceSessionEnded: async (tx, { payload: p }, at, recorded) => {
      const id = p.sessionId;
      await tx.query(`UPDATE df_sessions SET status = 'ended', ended_at = $2, end_reason = $3, recording_id = NULL WHERE session_id = $1`, [id, at, p.reason]);
      await activity(tx, recorded, id, `${id}-ended`, 'lifecycle', { event: 'ended', reason: p.reason });
    },
    DeviceSessionDeleted: async (tx, { payload: { sessionId: id } }) => {
      // Removed on request (purge): the record leaves every list, its timeline and artifacts go.
      await tx.query(`UPDATE df_sessions SET deleted = true WHERE session_id = $1`, [id]);
      await tx.query(`DELETE FROM df_session_activities WHERE session_id = $1`, [id]);
      await tx.query(`DELETE FROM df_session_artifacts WHERE session_id = $1`, [id]);
      await tx.query(`DELETE FROM df_session_videos WHERE session_id = $1`, [id]);
      await tx.query(`DELETE FROM df_session_debug_grants WHERE session_id = $1`, [id]);
    },
    DeviceSessionRenamed: (tx, { payload: p }) => tx.query(`UPDATE df_sessions SET name = $2 WHERE session_id = $1`, [p.sessionId, p.name]),
    DeviceSessionOutcomeSet: (tx, { payload: p }) => tx.query(`UPDATE df_sessions SET outcome = $2, outcome_reason = $3 WHERE session_id = $1`, [p.sessionId, p.outcome, p.reason]),
    DeviceSessionMetadataUpdated: (tx, { payload: p }) => tx.query(`UPDATE df_sessions SET metadata = $2 WHERE session_id = $1`, [p.sessionId, JSON.stringify(p.metadata)]),
    DeviceSessionNotesUpdated: async (tx, { payload: p }, _at, recorded) => {
      const by = Number(recorded.metadata.actorId);
      await tx.query(`UPDATE df_sessions SET notes = $2, notes_by = $3 WHERE session_id = $1`, [p.sessionId, p.notes, Number.isSafeInteger(by) ? by : null]);
      await activity(tx, recorded, p.sessionId, recorded.id, 'note', { length: p.notes.length });
    },
    DeviceSessionActivityRecorded: async (tx, { payload: p }, at, recorded) => {
      await tx.query(`UPDATE df_sessions SET last_activity_at = GREATEST(last_activity_at, $2) WHERE session_id = $1`, [p.sessionId, at]);
      await activity(tx, recorded, p.sessionId, p.activityId, p.kind, p.detail);
    },
    DeviceSessionActivityExtended: async (tx, { payload: p }, at) => {
      // More typing in the same burst: the entry keeps its place and time, its detail grows.
      await tx.query(`UPDATE df_sessions SET last_activity_at = GREATEST(last_activity_at, $2) WHERE session_id = $1`, [p.sessionId, at]);
      await tx.query(`UPDATE df_session_activities SET detail = $3 WHERE session_id = $1 AND activity_id = $2`, [p.sessionId, p.activityId, JSON.stringify(p.detail)]);
    },
    DeviceSessionArtifactStored: (tx, { payload: p }, at) =>
      tx.query(
        `INSERT INTO df_session_artifacts (artifact_id, session_id, type, name, blob_key, content_type, size, created_at)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8) ON CONFLICT (artifact_id) DO NOTHING`,
        [p.artifactId, p.sessionId, p.type, p.name, p.blobKey, p.contentType, p.size, at],
      ),
    DeviceSessionRecordingStarted: async (tx, { payload: p }, at, recorded) => {
      await tx.query(`UPDATE df_sessions SET recording_id = $2, recording_started_at = $3, recording_frames = 0, recording_artifact_id = NULL WHERE session_id = $1`, [
        p.sessionId,
        p.recordingId,
        at,
      ]);
      await activity(tx, recorded, p.sessionId, recorded.id, 'recording', { event: 'started', recordingId: p.recordingId });
    },
    DeviceSessionRecordingStopped: async (tx, { payload: p }, at, recorded) => {
      await tx.query(`UPDATE df_sessions SET recording_id = NULL, recording_frames = $2, recording_artifact_id = $3 WHERE session_id = $1`, [p.sessionId, p.frames, p.artifactId]);
      if (p.video) {
        await tx.query(`UPDATE df_sessions SET video_recording_id = $2, video_format = $3, video_duration_ms = $4, video_bytes = $5, video_stored_at = $6, video_expired_at = NULL WHERE session_id = $1`, [p.sessionId, p.recordingId, p.video.format, p.video.durationMs, p.video.bytes, at]);
        // The recording started at the session's last RecordingStarted (one recording runs at a time).
        await tx.query(
          `INSERT INTO df_session_videos (session_id, recording_id, started_at, format, duration_ms, bytes, stored_at)
           SELECT session_id, $2, coalesce(recording_started_at, started_at), $3, $4, $5, $6 FROM df_sessions WHERE session_id = $1
           ON CONFLICT (session_id, recording_id) DO NOTHING`,
          [p.sessionId, p.recordingId, p.video.format, p.video.durationMs, p.video.bytes, at],
        );
      }
      await activity(tx, recorded, p.sessionId, recorded.id, 'recording', { event: 'stopped', frames: p.frames });
    },
    DeviceSessionVideoExpired: async (tx, { payload: p }, at, recorded) => {
      await tx.query(`UPDATE df_sessions SET video_expired_at = $2 WHERE session_id = $1`, [p.sessionId, at]);
      // The retention removes the session's whole videos folder: every recording's video went.
      await tx.query(`UPDATE df_session_videos SET expired_at = $2 WHERE session_id = $1 AND expired_at IS NULL`, [p.sessionId, at]);
      await activity(tx, recorded, p.sessionId, recorded.id, 'recording', { event: 'video-expired', retentionDays: p.retentionDays });
    },
    DeviceSessionDebugAccessGranted: async (tx, { payload: p }, at, recorded) => {
      for (const protocol of p.protocols) {
        await tx.query(`INSERT INTO df_session_debug_grants (session_id, user_id, protocol, granted_at) VALUES ($1,$2,$3,$4) ON CONFLICT DO NOTHING`, [p.sessionId, p.userId, protocol, at]);
      }
      await activity(tx, recorded, p.sessionId, recorded.id, 'debug', { event: 'granted', userId: p.userId, protocols: p.protocols });
    },
    DeviceSessionDebugAccessWithdrawn: async (tx, { payload: p }, _at, recorded) => {
      await tx.query(`DELETE FROM df_session_debug_grants WHERE session_id = $1 AND user_id = $2 AND protocol = ANY($3::text[])`, [p.sessionId, p.userId, p.protocols]);
      await activity(tx, recorded, p.sessionId, recorded.id, 'debug', { event: 'withdrawn', userId: p.userId, protocols: p.protocols });
    },
  }),
};

/** An entry of the session's timeline, keyed by the event that made it; its actor and time are the event's. */
async function activity(tx: Sql, recorded: RecordedEvent, sessionId: string, activityId: string, kind: string, detail: Record<string, unknown>): Promise<void> {
  const actorId = recorded.metadata.actorId;
  await tx.query(
    `INSERT INTO df_session_activities (event_id, session_id, activity_id, kind, detail, actor_id, at, position)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8) ON CONFLICT (event_id) DO NOTHING`,
    [recorded.id, sessionId, activityId, kind, JSON.stringify(detail), actorId === null || actorId === undefined ? null : String(actorId), recorded.metadata.occurredAt, recorded.position.toString()],
  );
}
