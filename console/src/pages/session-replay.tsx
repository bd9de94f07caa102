import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { RecordingStatus, Replay } from '@qa-platform/client';
import { api } from '../api';
import { Empty, ErrorNote, formatClock, Loading, useAction } from '../ui';
import { describeActivity, type ActivityEntry } from './activity-label';
import { SessionVideos } from './session-video';

const statusKey = (id: string) => ['recording-status', id];

function useRecordingStatus(id: string) {
  return useQuery({ queryKey: statusKey(id), queryFn: () => api<RecordingStatus>(`/df/api/sessions/${id}/recording/status`), refetchInterval: 3_000 });
}

/** "Start recording" / "Stop recording" for whoever controls the session (the toolbar). */
export function RecordingButtons({ id }: { id: string }) {
  const qc = useQueryClient();
  const status = useRecordingStatus(id);
  const action = useAction();
  const recording = status.data?.recording ?? false;
  const toggle = () =>
    action.run(async () => {
      const next = await api<RecordingStatus>(`/df/api/sessions/${id}/recording/${recording ? 'stop' : 'start'}`, { method: 'POST' });
      qc.setQueryData(statusKey(id), next);
      // A stopped recording is a new replay (and maybe a new video).
      if (!next.recording) await Promise.all([qc.invalidateQueries({ queryKey: ['replay', id] }), qc.invalidateQueries({ queryKey: ['videos', id] })]);
    });
  return (
    <>
      <button type="button" disabled={!status.data || action.busy} onClick={toggle}>
        {recording ? 'Stop recording' : 'Start recording'}
      </button>
      {action.error ? <ErrorNote error={action.error} /> : null}
    </>
  );
}

/** Shown to every viewer while the screen is recorded. */
export function RecordingIndicator({ id }: { id: string }) {
  const status = useRecordingStatus(id);
  if (!status.data?.recording) return null;
  return (
    <span class="badge recording" role="status">
      ● Recording{status.data.frames > 0 ? ` (${status.data.frames} frames)` : ''}
    </span>
  );
}

/** A recorded frame: the route needs the bearer token, so it is fetched and shown from a blob URL. */
function useFrameUrl(path: string | undefined) {
  const cache = useRef(new Map<string, string>());
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!path) return;
    const known = cache.current.get(path);
    if (known) return setUrl(known);
    let current = true;
    api<Response>(path, { raw: true })
      .then((res) => res.blob())
      .then((blob) => {
        const u = URL.createObjectURL(blob);
        cache.current.set(path, u);
        if (current) setUrl(u);
      })
      .catch((err) => current && setError(err));
    return () => {
      current = false;
    };
  }, [path]);
  useEffect(() => () => cache.current.forEach((u) => URL.revokeObjectURL(u)), []);
  return { url, error };
}

/** A mark's name and tooltip: what happened and when ("Tap at 12:01:03", "Text typed (5 characters) at …"). */
const markLabel = (a: ActivityEntry) => `${describeActivity(a)} at ${formatClock(a.at)}`;

/** The Replay pane: the session's videos with their timeline (when the host recorded them), then the recorded frames. */
export function ReplayPanel({ id }: { id: string }) {
  const status = useRecordingStatus(id);
  const q = useQuery({ queryKey: ['replay', id], queryFn: () => api<Replay>(`/df/api/sessions/${id}/replay`) });
  const video = status.data?.video;
  if (video?.expired) return <Empty>The session's video was removed on {video.expiredAt ? formatClock(video.expiredAt) : 'its expiry'}: the workspace keeps videos for a limited time.</Empty>;
  return (
    <>
      {video && q.data ? <SessionVideos id={id} replay={q.data} latestBytes={video.bytes} /> : null}
      {/* Frames are kept only by hosts that cannot encode a video (and by recordings from before videos). */}
      {video && q.data?.recordings.every((r) => r.frames.length === 0) ? null : <FrameReplay id={id} />}
    </>
  );
}

/**
 * The recorded frames: the session's stopped recordings, one at a time — the frame, play/pause, a
 * scrubber over the frames with their times, and the activities as marks on the timeline that jump
 * to the first frame at or after them.
 */
function FrameReplay({ id }: { id: string }) {
  const q = useQuery({ queryKey: ['replay', id], queryFn: () => api<Replay>(`/df/api/sessions/${id}/replay`) });
  const [chosen, setChosen] = useState<string | null>(null);
  const [position, setPosition] = useState(0);
  const [playing, setPlaying] = useState(false);
  const recordings = q.data?.recordings ?? [];
  const recording = recordings.find((r) => r.recordingId === chosen) ?? recordings[recordings.length - 1];
  const frames = recording?.frames ?? [];
  const frame = frames[Math.min(position, frames.length - 1)];
  const image = useFrameUrl(frame?.url);

  // Playing waits between frames as long as they were apart when recorded (bounded so a still
  // screen does not stall the replay).
  useEffect(() => {
    if (!playing) return;
    if (position >= frames.length - 1) return setPlaying(false);
    const gap = Date.parse(frames[position + 1]!.at) - Date.parse(frames[position]!.at);
    const timer = setTimeout(() => setPosition((p) => p + 1), Math.min(Math.max(gap, 40), 1_000));
    return () => clearTimeout(timer);
  }, [playing, position, frames]);

  if (q.isLoading) return <Loading />;
  if (q.error) return <ErrorNote error={q.error} />;
  if (!recording || frames.length === 0) return <Empty>No stopped recording yet.</Empty>;
  const start = Date.parse(frames[0]!.at);
  const end = Date.parse(frames[frames.length - 1]!.at);
  const span = Math.max(end - start, 1);
  const marks = q.data!.activities.filter((a) => {
    const t = Date.parse(a.at);
    return t >= start - 1_000 && t <= end + 1_000;
  });
  const placed = placeMarks(marks.map((a) => Math.min(Math.max(Date.parse(a.at) - start, 0), span) / span));
  const lanes = Math.max(1, ...placed.map((p) => p.lane + 1));
  const jumpTo = (at: string) => {
    const t = Date.parse(at);
    const i = frames.findIndex((f) => Date.parse(f.at) >= t);
    setPlaying(false);
    setPosition(i === -1 ? frames.length - 1 : i);
  };

  return (
    <div class="stack replay" role="region" aria-label="Replay">
      {recordings.length > 1 ? (
        <label class="field">
          <span>Recording</span>
          <select value={recording.recordingId} onChange={(e) => (setChosen((e.target as HTMLSelectElement).value), setPosition(0), setPlaying(false))}>
            {recordings.map((r) => (
              <option value={r.recordingId}>
                {formatClock(r.startedAt)} ({r.frames.length} frames{r.truncated ? ', truncated' : ''})
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <div class="replay-frame">
        {image.url ? <img src={image.url} alt={`Recorded frame ${position + 1} of ${frames.length}, ${formatClock(frame!.at)}`} /> : <Loading label="Loading the frame…" />}
      </div>
      <ErrorNote error={image.error} />
      <div class="row">
        <button
          type="button"
          onClick={() => {
            if (!playing && position >= frames.length - 1) setPosition(0);
            setPlaying(!playing);
          }}
        >
          {playing ? 'Pause' : 'Play'}
        </button>
        <output class="muted small" aria-label="Replay position">
          Frame {position + 1} of {frames.length} · {formatClock(frame!.at)}
        </output>
      </div>
      <div class="replay-timeline" style={{ paddingBottom: `${lanes * MARK_LANE_REM + 0.15}rem` }}>
        <input
          type="range"
          min={0}
          max={frames.length - 1}
          value={position}
          aria-label="Scrub through the recording"
          aria-valuetext={`Frame ${position + 1} of ${frames.length}, ${formatClock(frame!.at)}`}
          onInput={(e) => (setPlaying(false), setPosition(Number((e.target as HTMLInputElement).value)))}
        />
        <div class="replay-marks" role="group" aria-label="Activities on the timeline" style={{ height: `${lanes * MARK_LANE_REM}rem` }}>
          {marks.map((a, i) => (
            <button
              type="button"
              class="replay-mark"
              style={{ left: `${placed[i]!.at * 100}%`, bottom: `${placed[i]!.lane * MARK_LANE_REM}rem` }}
              aria-label={markLabel(a)}
              onClick={() => jumpTo(a.at)}
            >
              {/* Shown on hover and keyboard focus; the button's name says the same to assistive technology. */}
              <span class="replay-tip" aria-hidden="true">
                {markLabel(a)}
              </span>
            </button>
          ))}
        </div>
      </div>
      {recording.truncated ? <p class="muted small">This recording reached its frame limit and was cut short.</p> : null}
    </div>
  );
}

/** Height of one row of timeline marks, in rem. */
const MARK_LANE_REM = 1.1;
/** Marks closer than this share of the timeline would cover each other: the later one goes a row up. */
const MARK_MIN_GAP = 0.04;

/**
 * Rows for marks at fractions `at` of the timeline: each takes the lowest row whose last mark is far
 * enough to the left, so no mark covers another and each stays clickable.
 */
export function placeMarks(at: readonly number[]): { at: number; lane: number }[] {
  const order = at.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const lastInLane: number[] = [];
  const out: { at: number; lane: number }[] = at.map((x) => ({ at: x, lane: 0 }));
  for (const [x, i] of order) {
    let lane = lastInLane.findIndex((last) => x - last >= MARK_MIN_GAP);
    if (lane < 0) lane = lastInLane.length;
    lastInLane[lane] = x;
    out[i] = { at: x, lane };
  }
  return out;
}
