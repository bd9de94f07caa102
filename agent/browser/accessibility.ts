import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** axe-core's own build, injected as it is into each frame. */
let source: string | null = null;
export function axeSource(): string {
  source ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return source;
}

/**
 * The options of every axe-core call. `duplicate-id` is deprecated in axe-core (WCAG 2.2 made 4.1.1
 * obsolete) but still what teams ask for, so it is switched on.
 */
export const AXE_OPTIONS = `{ resultTypes: ['violations'], rules: { 'duplicate-id': { enabled: true }, 'duplicate-id-active': { enabled: true } } }`;

/** In one frame: its partial result (`axe.runPartial`) and the frames inside it to visit next. */
export const AXE_PARTIAL_SCRIPT = `async (context) => {
  const options = ${AXE_OPTIONS};
  const ctx = context === null ? document : context;
  const partial = await axe.runPartial(ctx, options);
  const frames = axe.utils.getFrameContexts(ctx, options);
  return { partial, frames };
}`;

/** The frame element a frame selector of `AXE_PARTIAL_SCRIPT` names (evaluated for its object id). */
export const frameElementExpression = (frameSelector: unknown) => `axe.utils.shadowSelect(${JSON.stringify(frameSelector)})`;

/**
 * In the top frame: `axe.finishRun` over every frame's partial result (depth first, `null` for a frame
 * that could not be scanned), then one entry per violating element, with its bounds in screenshot
 * pixels (CSS pixels times `scale`; an element inside a same-origin frame offset by the frame).
 */
export const AXE_FINISH_SCRIPT = `async (partials, scale, limit) => {
  const results = await axe.finishRun(partials, ${AXE_OPTIONS});
  const wcagOf = (tags) => tags.map((t) => /^wcag(\\d)(\\d)(\\d+)$/.exec(t)).filter(Boolean).map((m) => m[1] + '.' + m[2] + '.' + m[3]);
  const locate = (target) => {
    let doc = document, ox = 0, oy = 0;
    for (let i = 0; i < target.length; i++) {
      if (typeof target[i] !== 'string' || !doc) return null;
      let el = null;
      try { el = doc.querySelector(target[i]); } catch (e) { return null; }
      if (!el) return null;
      if (i === target.length - 1) return { el, ox, oy };
      const r = el.getBoundingClientRect();
      ox += r.x + el.clientLeft;
      oy += r.y + el.clientTop;
      doc = el.contentDocument;
    }
    return null;
  };
  const findings = [];
  for (const v of results.violations) {
    for (const n of v.nodes) {
      if (findings.length >= limit) break;
      const found = locate(n.target);
      const el = found && found.el;
      const r = el ? el.getBoundingClientRect() : null;
      findings.push({
        ruleId: v.id,
        impact: n.impact || v.impact || 'minor',
        wcag: wcagOf(v.tags),
        description: v.help,
        helpUrl: v.helpUrl,
        element: {
          // Frames are separated by ' | ', shadow roots by ' >>> '.
          selector: n.target.map((t) => Array.isArray(t) ? t.join(' >>> ') : t).join(' | '),
          text: el ? ((el.innerText || el.getAttribute('alt') || el.value || '') + '').trim().slice(0, 300) : '',
          html: (n.html || '').slice(0, 1000),
          bounds: r ? { x: Math.round((r.x + found.ox) * scale), y: Math.round((r.y + found.oy) * scale), width: Math.round(r.width * scale), height: Math.round(r.height * scale) } : { x: 0, y: 0, width: 0, height: 0 },
        },
      });
    }
  }
  return { engine: 'axe-core ' + axe.version, url: location.href, title: document.title, scope: location.origin + location.pathname, findings };
}`;
