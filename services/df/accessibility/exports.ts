import type { AuditView, FindingView, ScanView } from '#projections/df-accessibility/index.js';

/** What an export holds: the audit, its scans (with their screenshots for HTML) and every finding. */
export interface ExportContent {
  audit: AuditView;
  scans: (ScanView & { screenshot: Buffer | null })[];
  findings: FindingView[];
}

export const EXPORT_TYPES = { csv: 'text/csv; charset=utf-8', json: 'application/json', html: 'text/html; charset=utf-8' } as const;

const CSV_COLUMNS = ['findingId', 'scanId', 'url', 'ruleId', 'impact', 'wcag', 'description', 'selector', 'text', 'bounds', 'fingerprint', 'triageStatus', 'triageBy', 'triageReason', 'triageAt', 'helpUrl'] as const;

/** A CSV cell: quoted when needed; a leading `= + - @` is defused so spreadsheets do not run it. */
function cell(value: unknown): string {
  let s = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function renderCsv(c: ExportContent): string {
  const urlOf = new Map(c.scans.map((s) => [s.id, s.url]));
  const lines = [CSV_COLUMNS.join(',')];
  for (const f of c.findings) {
    const b = f.element.bounds;
    lines.push(
      [f.id, f.scanId, urlOf.get(f.scanId) ?? '', f.ruleId, f.impact, f.wcag.join(' '), f.description, f.element.selector, f.element.text, `${b.x},${b.y},${b.width},${b.height}`, f.fingerprint, f.triage.status, f.triage.by, f.triage.reason, f.triage.at, f.helpUrl]
        .map(cell)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

export function renderJson(c: ExportContent): string {
  const scans = c.scans.map(({ screenshot: _s, ...scan }) => scan);
  return JSON.stringify({ audit: c.audit, scans, findings: c.findings }, null, 2);
}

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
const COLOURS: Record<string, string> = { critical: '#b00020', serious: '#d35400', moderate: '#b7950b', minor: '#2874a6' };

/**
 * A report that reads offline: one self-contained page, each scan's screenshot inline (a data URL)
 * with its findings' elements outlined and numbered, and a table of the findings under it.
 */
export function renderHtml(c: ExportContent, generatedAt: string): string {
  const a = c.audit;
  const counts = Object.entries(a.findingCounts)
    .map(([k, v]) => `<span class="badge" style="background:${COLOURS[k]}">${esc(k)}: ${v}</span>`)
    .join(' ');
  const sections = c.scans.map((scan, si) => {
    const findings = c.findings.filter((f) => f.scanId === scan.id);
    const screen = scan.screen;
    const marks =
      scan.screenshot && screen
        ? findings
            .map((f, i) => {
              const b = f.element.bounds;
              const pct = (v: number, of: number) => `${((v / of) * 100).toFixed(3)}%`;
              return `<div class="mark" style="left:${pct(b.x, screen.width)};top:${pct(b.y, screen.height)};width:${pct(b.width, screen.width)};height:${pct(b.height, screen.height)};border-color:${COLOURS[f.impact]}"><span style="background:${COLOURS[f.impact]}">${i + 1}</span></div>`;
            })
            .join('')
        : '';
    const shot = scan.screenshot ? `<div class="shot"><img alt="Screenshot of scan ${si + 1}" src="data:image/png;base64,${scan.screenshot.toString('base64')}">${marks}</div>` : '<p>No screenshot.</p>';
    const rows = findings
      .map(
        (f, i) =>
          `<tr class="finding" data-rule="${esc(f.ruleId)}"><td>${i + 1}</td><td>${/^https?:\/\//.test(f.helpUrl) ? `<a href="${esc(f.helpUrl)}">${esc(f.ruleId)}</a>` : esc(f.ruleId)}</td><td><span class="badge" style="background:${COLOURS[f.impact]}">${esc(f.impact)}</span></td><td>${esc(f.wcag.join(', '))}</td><td>${esc(f.description)}</td><td><code>${esc(f.element.selector)}</code>${f.element.text ? `<br>${esc(f.element.text)}` : ''}</td><td>${esc(f.triage.status)}${f.triage.reason ? `: ${esc(f.triage.reason)}` : ''}</td></tr>`,
      )
      .join('');
    return `<section><h2>Scan ${si + 1}: ${esc(scan.title || scan.url)}</h2><p>${esc(scan.url)} · ${esc(scan.engine)} · ${esc(scan.createdAt)} · ${findings.length} findings</p>${shot}
<table><thead><tr><th>#</th><th>Rule</th><th>Impact</th><th>WCAG</th><th>Problem</th><th>Element</th><th>Triage</th></tr></thead><tbody>${rows}</tbody></table></section>`;
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Accessibility report: ${esc(a.name)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#111}h1{margin:0 0 8px}table{border-collapse:collapse;width:100%;margin:12px 0 32px}
td,th{border:1px solid #ccc;padding:4px 6px;text-align:left;vertical-align:top}.badge{color:#fff;padding:1px 6px;border-radius:3px;font-size:12px}
.shot{position:relative;display:inline-block;max-width:100%;border:1px solid #999}.shot img{display:block;max-width:100%}
.mark{position:absolute;border:3px solid;box-sizing:border-box}.mark span{position:absolute;top:-3px;left:-3px;color:#fff;font-size:12px;padding:0 4px}
</style></head><body><h1>Accessibility report: ${esc(a.name)}</h1>
<p>Platform ${esc(a.platform)} · device ${esc(a.deviceId)} · ${esc(a.status)} · ${a.scanCount} scans · created ${esc(a.createdAt)}${a.completedAt ? ` · completed ${esc(a.completedAt)}` : ''} · generated ${esc(generatedAt)}</p>
<p>${counts}</p>${sections.join('\n')}</body></html>`;
}
