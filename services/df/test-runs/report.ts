import type { TestAttemptView, TestRunDetail } from '#projections/df-test-runs/index.js';
import { verdictOf } from './junit.js';
import { testKey } from './plan.js';

// The run's report as one self-contained HTML page: the counts, a timeline per device (what ran where
// and when, retries and flaky tests marked) and the tests with their attempts. Everything that comes
// from the run or the APK is escaped; the page loads nothing.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text or an attribute's value, markup characters as entities. */
export const esc = (v: unknown): string => String(v ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]!);

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const COLOURS: Record<string, string> = { passed: '#2e7d32', flaky: '#f9a825', failed: '#c62828', errored: '#6a1b9a', skipped: '#757575' };

/** One device's lane: each attempt a bar placed by when it ran, its title saying what it was. */
function lane(deviceId: string, attempts: readonly TestAttemptView[], flaky: Set<string>, t0: number, span: number): string {
  const bars = attempts
    .map((a) => {
      const end = Date.parse(a.finishedAt) - t0;
      const left = Math.max(0, ((end - a.durationMs) / span) * 100);
      const width = Math.max(0.4, (a.durationMs / span) * 100);
      const marks = [a.attempt > 1 ? `retry ${a.attempt - 1}` : '', flaky.has(testKey(a)) ? 'flaky test' : ''].filter(Boolean).join(', ');
      const title = `${a.className}#${a.methodName} — attempt ${a.attempt}: ${a.outcome} (${seconds(a.durationMs)})${marks ? ` — ${marks}` : ''}`;
      const cls = `bar${a.attempt > 1 ? ' retry' : ''}${flaky.has(testKey(a)) ? ' flaky' : ''}`;
      return `<span class="${cls}" style="left:${left.toFixed(2)}%;width:${width.toFixed(2)}%;background:${COLOURS[a.outcome] ?? '#999'}" title="${esc(title)}"></span>`;
    })
    .join('');
  return `<div class="lane"><div class="device">${esc(deviceId)}</div><div class="track">${bars}</div></div>`;
}

/** The report of a run: its detail (counts, shards) and every attempt. */
export function reportHtml(run: TestRunDetail, attempts: readonly TestAttemptView[]): string {
  const ran = attempts.filter((a) => a.deviceId !== null);
  const byTest = new Map<string, TestAttemptView[]>();
  for (const a of attempts) byTest.set(testKey(a), [...(byTest.get(testKey(a)) ?? []), a]);
  const flaky = new Set([...byTest].filter(([, list]) => verdictOf(list) === 'flaky').map(([k]) => k));
  const t0 = Math.min(Date.parse(run.startedAt ?? run.queuedAt), ...ran.map((a) => Date.parse(a.finishedAt) - a.durationMs));
  const t1 = Math.max(Date.parse(run.endedAt ?? run.queuedAt), ...ran.map((a) => Date.parse(a.finishedAt)));
  const span = Math.max(1, t1 - t0);
  const lanes = run.shards.map((s) => lane(s.deviceId, ran.filter((a) => a.deviceId === s.deviceId), flaky, t0, span)).join('\n');
  const rows = [...byTest]
    .map(([key, list]) => {
      const verdict = verdictOf(list);
      const tries = list.map((a) => `${a.attempt}: ${esc(a.outcome)} on ${esc(a.deviceId ?? '—')} (${seconds(a.durationMs)})${a.message ? ` — ${esc(a.message)}` : ''}`).join('<br>');
      const stack = list.find((a) => a.stack)?.stack;
      return `<tr class="${esc(verdict)}"><td>${esc(key)}</td><td>${esc(verdict)}</td><td>${tries}${stack ? `<details><summary>stack</summary><pre>${esc(stack)}</pre></details>` : ''}</td></tr>`;
    })
    .join('\n');
  const c = run.counts;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(run.name ?? run.id)} — test run</title>
<style>
body{font:14px system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:4px 6px;text-align:left;vertical-align:top}
.lane{display:flex;align-items:center;margin:4px 0}.device{width:16em;overflow:hidden;text-overflow:ellipsis;font-family:monospace}
.track{position:relative;flex:1;height:18px;background:#f2f2f2}.bar{position:absolute;top:2px;height:14px}.bar.retry{outline:2px dashed #000}.bar.flaky{top:0;height:18px}
tr.failed td:nth-child(2),tr.errored td:nth-child(2){color:#c62828}tr.flaky td:nth-child(2){color:#b26a00}pre{white-space:pre-wrap}
</style></head><body>
<h1>${esc(run.name ?? run.id)}</h1>
<p>State <strong>${esc(run.state)}</strong>${run.reason ? ` — ${esc(run.reason)}` : ''}. Test APK <code>${esc(run.testPackage)}</code>, planned by ${esc(run.basis ?? '—')}.</p>
<p>${c.total} tests: ${c.passed} passed, ${c.failed} failed, ${c.flaky} flaky, ${c.skipped} skipped, ${c.notRun} not run.</p>
<h2>Timeline per device</h2>
<p>Each bar is one attempt, coloured by its outcome; a dashed outline is a retry, a taller bar an attempt of a flaky test.</p>
${lanes}
<h2>Tests</h2>
<table><thead><tr><th>test</th><th>result</th><th>attempts</th></tr></thead><tbody>
${rows}
</tbody></table>
</body></html>
`;
}
