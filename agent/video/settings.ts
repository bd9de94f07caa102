import { z } from 'zod';

/** libx264's presets, fastest (least CPU) first. */
export const X264_PRESETS = ['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow', 'slower', 'veryslow'] as const;

/** How a host encodes its sessions' videos (the agent config's `video`, overridden by `AGENT_VIDEO_*`). */
export const VideoSettings = z.object({
  /** Record videos at all (needs ffmpeg at `ffmpegPath`). */
  enabled: z.boolean().default(true),
  ffmpegPath: z.string().min(1).max(1_000).default('/usr/bin/ffmpeg'),
  /** libx264 preset: the faster, the less CPU and the larger the file. */
  preset: z.enum(X264_PRESETS).default('ultrafast'),
  /** The long side of the video at most, in pixels (smaller screens keep their size). */
  maxSize: z.number().int().min(120).max(4_096).default(720),
  /** Constant output rate: frames a second (a still screen repeats its last frame). */
  fps: z.number().int().min(1).max(30).default(30),
  /** How often the encoded bytes are cut and sent for storage: what a crashed host loses at most. */
  segmentMs: z.number().int().min(250).max(30_000).default(2_000),
});
export type VideoSettings = z.infer<typeof VideoSettings>;
