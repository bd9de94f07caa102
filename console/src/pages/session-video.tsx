import { useQuery } from '@tanstack/preact-query';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { ErrorNote, formatClock, Loading } from '../ui';
import { describeActivity, type ActivityEntry } from './activity-label';

/** A signed link to the session's video (it answers Range requests, so the <video> element seeks without downloading it all). */
interface VideoLink {
  url: string;
  expiresAt: string;
}

/** Seconds into the video of a timeline entry: its time after the video's first moment. */
const offsetOf = (entry: ActivityEntry, startedAt: string) => Math.max(0, (Date.parse(entry.at) - Date.parse(startedAt)) / 1000);

/**
 * The session's video with its timeline beside it: clicking an entry seeks the video to that moment,
 * and the entry of the moment shown is marked (and kept in view) as the video plays.
 */
export function VideoReplay({ id, startedAt, durationMs, activities }: { id: string; startedAt: string; durationMs: number; activities: readonly ActivityEntry[] }) {
  const link = useQuery({ queryKey: ['video-link', id, durationMs], queryFn: () => api<VideoLink>(`/df/api/sessions/${id}/video/link`), staleTime: 30 * 60_000 });
  const download = useQuery({ queryKey: ['video-download', id, durationMs], queryFn: () => api<VideoLink>(`/df/api/sessions/${id}/video/link`, { query: { download: 'true' } }), staleTime: 30 * 60_000 });
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
    <section class="stack video-replay" aria-label="Video">
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
    </section>
  );
}
