/**
 * A session's video as a test runner's integration reaches it once the session has ended: waiting
 * (bounded) for the platform to store it (`recording/status`), its signed link (`video/link`), its
 * bytes (`video`), and where a test sits in it — the session's WebVTT chapters (`video/chapters`), one
 * cue per timeline entry, the runner's test events among them (titled `custom: <test name>`).
 */
import { QaPlatformApiError, runnerCall, runnerFetch, type RunnerConnection } from './runner.js';

/** The stored video as `recording/status` names it. */
export interface StoredVideo {
  format: 'mp4';
  durationMs: number;
  bytes: number;
  expired: boolean;
  expiredAt: string | null;
}

/** What waiting for a session's video came to: the video, or why there is none (a sentence). */
export type VideoWait = { video: StoredVideo } | { video: null; why: string };

export interface VideoWaitOptions {
  /** How long to wait for the platform to store the video (default 60 s). */
  timeoutMs?: number;
  /** Between two looks at the status (default 500 ms). */
  intervalMs?: number;
  /** How to wait (tests pass their own); default a timer. */
  wait?: (ms: number) => Promise<void>;
}

interface RecordingStatus {
  recording: boolean;
  recordingId: string | null;
  lastArtifactId: string | null;
  video: StoredVideo | null;
}

/**
 * Waits, at most `timeoutMs`, until the ended session's recording is stopped and its video stored.
 * Answers the video, or why there is none: the session never recorded, the host kept frames instead
 * (no encoder), the retention removed it, or the platform was not done in time. Never throws for the
 * platform's slowness or a refusal: a runner says it and goes on.
 */
export async function waitForVideo(connection: RunnerConnection, sessionId: string, options: VideoWaitOptions = {}): Promise<VideoWait> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const intervalMs = options.intervalMs ?? 500;
  const wait = options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const started = Date.now();
  const deadline = started + timeoutMs;
  // A stopped recording without a video is given a moment: the session's end may not be read everywhere yet.
  const grace = started + Math.min(timeoutMs, 5_000);
  for (;;) {
    let status: RecordingStatus;
    try {
      status = await runnerCall<RecordingStatus>(connection, 'GET', `/df/api/sessions/${encodeURIComponent(sessionId)}/recording/status`);
    } catch (err) {
      return { video: null, why: `the platform did not say (${videoTrouble(err)})` };
    }
    if (status.video && !status.recording) {
      return status.video.expired ? { video: null, why: `the workspace's video retention removed it at ${status.video.expiredAt}` } : { video: status.video };
    }
    if (!status.recording && !status.video && Date.now() > grace) {
      // Stopped without a video: recorded as frames only (a host that cannot encode), or never recorded.
      return status.lastArtifactId
        ? { video: null, why: 'the session was recorded as frames, not as a video (its host does not encode videos); the replay shows them' }
        : { video: null, why: 'the session did not record its screen (ask for it with the recording option, or turn on recording of automation sessions in the workspace)' };
    }
    if (Date.now() > deadline) return { video: null, why: `the platform had not stored it ${timeoutMs / 1000} s after the session ended; it may still come: see the replay` };
    await wait(intervalMs);
  }
}

/**
 * A signed link to the session's video (valid an hour: `expiresAt`), which plays and downloads without
 * a credential; absolute (the file-system store signs a path of the platform's, resolved here).
 */
export async function videoLink(connection: RunnerConnection, sessionId: string): Promise<{ url: string; expiresAt: string }> {
  const signed = await runnerCall<{ url: string; expiresAt: string }>(connection, 'GET', `/df/api/sessions/${encodeURIComponent(sessionId)}/video/link`);
  return { url: new URL(signed.url, connection.base).toString(), expiresAt: signed.expiresAt };
}

/** The session's video, its bytes (MP4, H.264). */
export async function videoBytes(connection: RunnerConnection, sessionId: string): Promise<Uint8Array> {
  const res = await runnerFetch(connection, 'GET', `/df/api/sessions/${encodeURIComponent(sessionId)}/video`, 'video/mp4');
  return new Uint8Array(await res.arrayBuffer());
}

/** One cue of the chapters: from `startMs` to `endMs` of the video, its title. */
export interface Chapter {
  startMs: number;
  endMs: number;
  title: string;
}

/** The session's chapters as WebVTT, as the platform serves them. */
export async function videoChaptersVtt(connection: RunnerConnection, sessionId: string): Promise<string> {
  return (await runnerFetch(connection, 'GET', `/df/api/sessions/${encodeURIComponent(sessionId)}/video/chapters`, 'text/vtt')).text();
}

const time = (stamp: string): number => {
  const m = /^(?:(\d+):)?(\d{2}):(\d{2})\.(\d{3})$/.exec(stamp.trim());
  if (!m) return Number.NaN;
  return ((Number(m[1] ?? 0) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + Number(m[4]);
};

/** The cues of a WebVTT file, in order. */
export function parseChapters(vtt: string): Chapter[] {
  const chapters: Chapter[] = [];
  for (const block of vtt.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const lines = block.split('\n');
    const at = lines.findIndex((l) => l.includes('-->'));
    if (at < 0) continue;
    const [from, to] = lines[at]!.split('-->');
    const [startMs, endMs] = [time(from ?? ''), time((to ?? '').trim().split(/\s+/)[0] ?? '')];
    if (Number.isNaN(startMs) || Number.isNaN(endMs)) continue;
    chapters.push({ startMs, endMs, title: lines.slice(at + 1).join('\n').trim() });
  }
  return chapters;
}

/** The title the platform gives the chapter of a test event (a timeline entry of kind `custom` named after the test). */
export const testChapterTitle = (testName: string): string => `custom: ${testName}`.replace(/\s+/g, ' ').replace(/-->/g, '->').slice(0, 200);

/**
 * Where a test is in the video: the chapter of its `test_started` event and of the event that ended
 * it. `occurrence` counts the session's test events with the same name before its start (0 when no
 * other suite, test or earlier run of it in the session has that name). Null when the chapters do not hold it (the test ran
 * before the video started).
 */
export function testInVideo(chapters: Chapter[], testName: string, occurrence = 0): { startMs: number; endMs: number } | null {
  const title = testChapterTitle(testName);
  const own = chapters.filter((c) => c.title === title);
  const start = own[occurrence];
  if (!start) return null;
  const end = own[occurrence + 1];
  return { startMs: start.startMs, endMs: end ? end.endMs : start.endMs };
}

/** A time in the video as people read it: `1:02.345` (`1:02:03.456` past an hour). */
export function videoTime(ms: number): string {
  const t = Math.max(0, Math.round(ms));
  const [h, m, s, milli] = [Math.floor(t / 3_600_000), Math.floor((t % 3_600_000) / 60_000), Math.floor((t % 60_000) / 1_000), t % 1_000];
  const tail = `${String(s).padStart(2, '0')}.${String(milli).padStart(3, '0')}`;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${tail}` : `${m}:${tail}`;
}

/** A video that exists but could not be reached is a trouble to say, not a test's failure. */
export const videoTrouble = (err: unknown): string => (err instanceof QaPlatformApiError ? err.reason : err instanceof Error ? err.message : String(err));
