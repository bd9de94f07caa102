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
