import { useQuery } from '@tanstack/preact-query';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Replay } from '@qa-platform/client';
import { api } from '../api';
import { Empty, ErrorNote, formatClock, Loading } from '../ui';
import { describeActivity, type ActivityEntry } from './activity-label';

/** A signed link to the session's video (it answers Range requests, so the <video> element seeks without downloading it all). */
interface VideoLink {
  url: string;
  expiresAt: string;
}

/** One recording's video as `GET .../videos` lists it. */
interface SessionVideo {
  recordingId: string;
  startedAt: string;
  durationMs: number;
  bytes: number;
  expired: boolean;
  expiredAt: string | null;
}

/** Seconds into the video of a timeline entry: its time after the video's first moment. */
const offsetOf = (entry: ActivityEntry, startedAt: string) => Math.max(0, (Date.parse(entry.at) - Date.parse(startedAt)) / 1000);

/** A video's length as a person reads it: "45 s", "2 min 5 s". */
export const videoLength = (ms: number) => {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
};

/**
 * The session's videos, one per recording that made one: the latest is shown, and a session recorded
 * several times has a choice of which recording to watch; the timeline beside it follows that
 * recording's start. `latestBytes`: the latest video's size, which a new recording changes.
 */
export function SessionVideos({ id, replay, latestBytes }: { id: string; replay: Replay; latestBytes: number }) {
  const list = useQuery({ queryKey: ['videos', id, latestBytes], queryFn: () => api<{ videos: SessionVideo[] }>(`/df/api/sessions/${id}/videos`) });
  const [chosen, setChosen] = useState<string | null>(null);
  if (list.isLoading) return <Loading label="Loading the videos…" />;
  if (list.error) return <ErrorNote error={list.error} />;
  const videos = list.data!.videos;
  const video = videos.find((v) => v.recordingId === chosen) ?? videos.at(-1);
  if (!video) return null;
  // The recording's own start (its manifest's) is the video's first moment; the list's is when it was recorded as started.
  const startedAt = replay.recordings.find((r) => r.recordingId === video.recordingId)?.startedAt ?? video.startedAt;
  return (
    <section class="stack video-replay" aria-label="Video">
      {videos.length > 1 ? (
        <label class="field">
          <span>Recording</span>
          <select value={video.recordingId} onChange={(e) => setChosen((e.target as HTMLSelectElement).value)}>
            {videos.map((v, i) => (
              <option value={v.recordingId}>
                Recording {i + 1} — {formatClock(v.startedAt)}, {videoLength(v.durationMs)}
                {v.expired ? ' (removed)' : ''}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {video.expired ? (
        <Empty>This recording's video was removed on {video.expiredAt ? formatClock(video.expiredAt) : 'its expiry'}: the workspace keeps videos for a limited time.</Empty>
      ) : (
        <VideoReplay key={video.recordingId} id={id} recordingId={video.recordingId} startedAt={startedAt} durationMs={video.durationMs} activities={replay.activities} />
      )}
    </section>
  );
}

/**
 * One recording's video with its timeline beside it: clicking an entry seeks the video to that moment,
 * and the entry of the moment shown is marked (and kept in view) as the video plays.
 */
function VideoReplay({ id, recordingId, startedAt, durationMs, activities }: { id: string; recordingId: string; startedAt: string; durationMs: number; activities: readonly ActivityEntry[] }) {
  const path = `/df/api/sessions/${id}/videos/${recordingId}/link`;
  const link = useQuery({ queryKey: ['video-link', id, recordingId], queryFn: () => api<VideoLink>(path), staleTime: 30 * 60_000 });
  const download = useQuery({ queryKey: ['video-download', id, recordingId], queryFn: () => api<VideoLink>(path, { query: { download: 'true' } }), staleTime: 30 * 60_000 });
  const video = useRef<HTMLVideoElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const [current, setCurrent] = useState(-1);
  const entries = activities.filter((a) => {
    const t = offsetOf(a, startedAt);
    return Date.parse(a.at) >= Date.parse(startedAt) && t * 1000 <= durationMs;
  });

  useEffect(() => {
    list.current?.querySelector('[aria-current="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [current]);

  const follow = () => {
    const t = video.current?.currentTime ?? 0;
    let at = -1;
    entries.forEach((e, i) => {
      if (offsetOf(e, startedAt) <= t + 0.05) at = i;
    });
    setCurrent(at);
  };
  const seek = (entry: ActivityEntry) => {
    if (!video.current) return;
    video.current.currentTime = offsetOf(entry, startedAt);
  };

  if (link.isLoading) return <Loading label="Loading the video…" />;
  if (link.error) return <ErrorNote error={link.error} />;
  return (
    <>
      <div class="video-replay-body">
        <video ref={video} src={link.data!.url} controls preload="metadata" onTimeUpdate={follow} onSeeked={follow} aria-label={`Video of the session from ${formatClock(startedAt)}`} />
        <ol ref={list} class="video-timeline" aria-label="Timeline of the video">
          {entries.map((e, i) => (
            <li>
              <button type="button" aria-current={i === current ? 'true' : undefined} onClick={() => seek(e)}>
                <span class="muted small">{formatClock(e.at)}</span> {describeActivity(e)}
              </button>
            </li>
          ))}
        </ol>
      </div>
      {download.data ? (
        <a href={download.data.url} download>
          Download the video (MP4)
        </a>
      ) : null}
    </>
  );
}
