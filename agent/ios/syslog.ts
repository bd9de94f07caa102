import type { LogEntry } from '#shared/wire/index.js';

// "Nov 24 12:00:00 iPhone SpringBoard(UIKitCore)[58] <Notice>: message"
const LINE = /^\w{3}\s+\d+\s+\d\d:\d\d:\d\d(?:\.\d+)?\s+\S+\s+([^\s[(]+)(?:\([^)]*\))?(?:\[(\d+)\])?\s+<(\w+)>:\s?(.*)$/s;
const LEVELS: Record<string, LogEntry['level']> = { Emergency: 'error', Alert: 'error', Critical: 'error', Error: 'error', Warning: 'warn', Notice: 'info', Info: 'info', Debug: 'debug' };

/** One syslog_relay line as a log entry's level, source (the process) and text; other lines keep their text. */
export function parseSyslogLine(line: string): { level: LogEntry['level']; source: string; text: string } {
  const m = LINE.exec(line.trimEnd());
  if (!m) return { level: 'info', source: 'syslog', text: line };
  const [, process, pid, level, message] = m as unknown as [string, string, string | undefined, string, string];
  return { level: LEVELS[level] ?? 'info', source: process.slice(0, 50), text: pid ? `[${pid}] ${message}` : message };
}
