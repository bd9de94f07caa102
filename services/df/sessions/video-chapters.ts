/** A timeline entry as the chapters read it. */
export interface TimelineEntry {
  kind: string;
  detail: Record<string, unknown>;
  at: string;
}

const SUMMARY_FIELDS = ['name', 'testName', 'command', 'action', 'type', 'text', 'url', 'event'] as const;

/** One line naming an entry: its kind and the first telling field of its detail. */
export function entryTitle(entry: TimelineEntry): string {
  const field = SUMMARY_FIELDS.map((f) => entry.detail[f]).find((v) => typeof v === 'string' && v.trim() !== '');
  const text = `${entry.kind}${typeof field === 'string' ? `: ${field}` : ''}`;
  // A cue's text ends at a blank line and must not hold "-->": one line, the arrow spelled otherwise.
  return text.replace(/\s+/g, ' ').replace(/-->/g, '->').slice(0, 200);
}

const stamp = (ms: number) => {
  const t = Math.max(0, Math.round(ms));
  const h = Math.floor(t / 3_600_000);
  const m = Math.floor((t % 3_600_000) / 60_000);
  const s = Math.floor((t % 60_000) / 1_000);
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(t % 1_000).padStart(3, '0')}`;
};

/**
 * The session's timeline as WebVTT chapters of its video: one cue per entry within the video, from
 * the entry's time (relative to `startedAt`, the video's first moment) to the next entry's, the last
 * to the video's end.
 */
export function chaptersVtt(entries: readonly TimelineEntry[], startedAt: string, durationMs: number): string {
  const origin = Date.parse(startedAt);
  const inside = entries
    .map((e) => ({ e, offset: Date.parse(e.at) - origin }))
    .filter(({ offset }) => offset >= 0 && offset < durationMs)
    .sort((a, b) => a.offset - b.offset);
  // Chapters must not overlap and each must last: entries of one millisecond start a millisecond apart.
  const starts: { e: TimelineEntry; start: number }[] = [];
  for (const { e, offset } of inside) {
    const start = Math.max(offset, (starts.at(-1)?.start ?? -1) + 1);
    if (start < durationMs) starts.push({ e, start });
  }
  const cues = starts.map(({ e, start }, i) => {
    const end = i + 1 < starts.length ? starts[i + 1]!.start : durationMs;
    return `${i + 1}\n${stamp(start)} --> ${stamp(end)}\n${entryTitle(e)}\n`;
  });
  return ['WEBVTT', '', ...cues].join('\n');
}
