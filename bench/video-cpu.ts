import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { VideoEncoder } from '../agent/video/encoder.js';
import { VideoSettings } from '../agent/video/settings.js';

/**
 * `npx tsx bench/video-cpu.ts [seconds]`: what recording a session's video costs the device host. One
 * and then four encoders side by side, each fed a 1280×800 screen that changes on every frame (the
 * worst case: an animation) at 30 frames a second, encoded at 720 px, 30 fps, preset ultrafast; the
 * CPU of each ffmpeg (from /proc) and of this process (the feeding and the segment hand-over) over the
 * run, as a share of one core per session. Not recording costs none of it: the frames are the ones
 * the screen stream makes anyway.
 */
const seconds = Number(process.argv[2] ?? 20);
const TICK = 100 / (Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100);

/** Distinct frames, so every frame changes the picture. */
const frames = Array.from({ length: 10 }, (_, i) =>
  execFileSync('/usr/bin/ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `testsrc2=s=1280x800:r=1`, '-ss', String(i), '-frames:v', '1', '-c:v', 'mjpeg', '-q:v', '5', '-f', 'image2pipe', 'pipe:1'], { maxBuffer: 1 << 24 }),
);

const cpuOf = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK * 10; // ms
};

async function run(sessions: number): Promise<{ sessions: number; ffmpegPct: number; agentPct: number; bytesPerSecond: number }> {
  let bytes = 0;
  const encoders = Array.from({ length: sessions }, () => new VideoEncoder(VideoSettings.parse({}), async (s) => void (bytes += s.data.length), () => undefined));
  let i = 0;
  const feed = setInterval(() => {
    i++;
    for (const e of encoders) e.frame(frames[i % frames.length]!);
  }, 1000 / 30);
  const began = Date.now();
  const self = process.cpuUsage();
  const ffmpegCpu = new Map<number, number>();
  const sample = setInterval(() => {
    for (const e of encoders) if (e.pid) ffmpegCpu.set(e.pid, cpuOf(e.pid));
  }, 500);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  clearInterval(feed);
  clearInterval(sample);
  for (const e of encoders) if (e.pid) ffmpegCpu.set(e.pid, cpuOf(e.pid));
  const wall = Date.now() - began;
  const used = process.cpuUsage(self);
  await Promise.all(encoders.map((e) => e.finish()));
  const ffmpegMs = [...ffmpegCpu.values()].reduce((a, b) => a + b, 0);
  return {
    sessions,
    ffmpegPct: Math.round((ffmpegMs / wall / sessions) * 1000) / 10,
    agentPct: Math.round(((used.user + used.system) / 1000 / wall / sessions) * 1000) / 10,
    bytesPerSecond: Math.round(bytes / (wall / 1000) / sessions),
  };
}

for (const n of [1, 4]) {
  const r = await run(n);
  console.log(`video ${n} session(s): ffmpeg ${r.ffmpegPct} % of a core each, feeding ${r.agentPct} % each, ${Math.round(r.bytesPerSecond / 1024)} KiB/s of video each`);
}
