import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** axe-core's own build, injected as it is into the page. */
let source: string | null = null;
export function axeSource(): string {
  source ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return source;
}

/**
 * Runs axe-core in the page (after `axeSource()` was evaluated there) and answers its violations, one
 * entry per element, with the element's bounds in screenshot pixels (CSS pixels times `scale`).
 * `duplicate-id` is deprecated in axe-core (WCAG 2.2 made 4.1.1 obsolete) but still what teams ask
 * for, so it is switched on.
 */
export const AXE_RUN_SCRIPT = `async (scale, limit) => {
  const results = await axe.run(document, {
    resultTypes: ['violations'],
    // Only the top document: frames would need axe-core in each of them (runPartial/finishRun).
    iframes: false,
    rules: { 'duplicate-id': { enabled: true }, 'duplicate-id-active': { enabled: true } },
  });
  const wcagOf = (tags) => tags.map((t) => /^wcag(\\d)(\\d)(\\d+)$/.exec(t)).filter(Boolean).map((m) => m[1] + '.' + m[2] + '.' + m[3]);
  const findings = [];
  for (const v of results.violations) {
    for (const n of v.nodes) {
      if (findings.length >= limit) break;
      const target = n.target.map((t) => Array.isArray(t) ? t.join(' >>> ') : t);
      let el = null;
      try { el = target.length === 1 ? document.querySelector(target[0]) : null; } catch (e) {}
      const r = el ? el.getBoundingClientRect() : null;
      findings.push({
        ruleId: v.id,
        impact: n.impact || v.impact || 'minor',
        wcag: wcagOf(v.tags),
        description: v.help,
        helpUrl: v.helpUrl,
        element: {
          selector: target.join(' | '),
          text: el ? ((el.innerText || el.getAttribute('alt') || el.value || '') + '').trim().slice(0, 300) : '',
          html: (n.html || '').slice(0, 1000),
          bounds: r ? { x: Math.round(r.x * scale), y: Math.round(r.y * scale), width: Math.round(r.width * scale), height: Math.round(r.height * scale) } : { x: 0, y: 0, width: 0, height: 0 },
        },
      });
    }
  }
  return { engine: 'axe-core ' + axe.version, url: location.href, title: document.title, scope: location.origin + location.pathname, findings };
}`;
