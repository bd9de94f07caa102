import type { Duplex } from 'node:stream';
import type { LogEntry } from '#shared/wire/index.js';

const THREADTIME = /^(\d\d-\d\d)\s+(\d\d:\d\d:\d\d\.\d+)\s+(\d+)\s+(\d+)\s+([VDIWEFS])\s+(.*?)\s*:\s(.*)$/;
const LEVELS: Record<string, LogEntry['level']> = { V: 'debug', D: 'debug', I: 'info', W: 'warn', E: 'error', F: 'error', S: 'debug' };

/** One `logcat -v threadtime` line as a log entry's level, source (the tag) and text; null for others. */
export function parseLogcatLine(line: string, year = new Date().getFullYear()): { level: LogEntry['level']; source: string; text: string; at: Date } | null {
  const m = THREADTIME.exec(line.trimEnd());
  if (!m) return null;
  const [, date, time, pid, , level, tag, message] = m as unknown as [string, string, string, string, string, string, string, string];
  const at = new Date(`${year}-${date}T${time.slice(0, 12)}`);
  return { level: LEVELS[level] ?? 'info', source: (tag || 'logcat').slice(0, 50), text: `[${pid}] ${message}`, at: Number.isNaN(at.getTime()) ? new Date() : at };
}

/**
 * Follows the device's log from now (`logcat -c`, then `logcat -v threadtime`) into `push`, one entry per
 * line (a line that is no threadtime entry as it is, under `logcat`); answers the stream, which the caller
 * destroys to stop.
 */
export async function followLogcat(
  device: { shell(command: string): Promise<Duplex> },
  sh: (command: string) => Promise<string>,
  push: (level: LogEntry['level'], source: string, text: string, at?: Date) => void,
): Promise<Duplex> {
  await sh('logcat -c').catch(() => undefined);
  const stream = await device.shell('logcat -v threadtime');
  let rest = '';
  stream.on('data', (chunk: Buffer) => {
    const text = rest + chunk.toString('utf8');
    const lines = text.split(/\r?\n/);
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const entry = parseLogcatLine(line);
      if (entry) push(entry.level, entry.source, entry.text, entry.at);
      else if (line.trim() && !line.startsWith('---------')) push('info', 'logcat', line);
    }
  });
  stream.on('error', () => undefined);
  return stream;
}
