import { webdriverActivities } from '#projections/df-sessions/index.js';
import type { Sql } from '#shared/db/index.js';
import type { CommandEntry } from './command-log.js';

/** One command of a session's WebDriver command log, as `GET .../webdriver-log` and a session's evidence answer it. */
export type CommandLogEntry = { n: number; activityId: string } & Omit<CommandEntry, 'source'>;

/** Every WebDriver command of a session, in the order they started, from its timeline. */
export async function sessionCommandLog(db: Sql, sessionId: string): Promise<CommandLogEntry[]> {
  const entries = (await webdriverActivities(db, sessionId)).map(({ activityId, detail }) => ({ id: activityId, detail: detail as Partial<CommandEntry> }));
  // Replicas write their bursts independently: the start of each command orders them.
  entries.sort((a, b) => String(a.detail.startedAt ?? '').localeCompare(String(b.detail.startedAt ?? '')));
  return entries.map(({ id, detail: d }, i) => ({
    n: i + 1,
    activityId: id,
    startedAt: String(d.startedAt ?? ''),
    command: String(d.command ?? ''),
    method: String(d.method ?? ''),
    path: String(d.path ?? ''),
    element: d.element ?? null,
    args: d.args ?? null,
    durationMs: Number(d.durationMs ?? 0),
    outcome: d.outcome === 'error' ? 'error' : 'success',
    status: Number(d.status ?? 0),
    ...(d.result !== undefined ? { result: d.result } : {}),
    ...(d.error !== undefined ? { error: d.error } : {}),
    ...(d.message !== undefined ? { message: d.message } : {}),
  }));
}
