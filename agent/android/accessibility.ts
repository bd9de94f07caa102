import { PNG } from 'pngjs';
import type { AccessibilityViolation } from '#shared/wire/index.js';

/*
 * Accessibility rules over an Android screen: the `uiautomator dump` hierarchy and the screenshot, in
 * the spirit of Google's Accessibility Test Framework (ATF). Each rule names the ATF check it follows.
 * Bounds are screen pixels; sizes are compared in dp (pixels * 160 / density).
 */

export const ANDROID_ENGINE = 'android-rules 1';
const ATF = 'https://support.google.com/accessibility/android/answer/';

interface RawNode {
  attrs: Record<string, string>;
  className: string;
  bounds: { x: number; y: number; width: number; height: number };
  selector: string;
  parent: RawNode | null;
  children: RawNode[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (s: string) =>
  s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (all, e: string) =>
    e.startsWith('#x') ? String.fromCodePoint(parseInt(e.slice(2), 16)) : e.startsWith('#') ? String.fromCodePoint(Number(e.slice(1))) : (ENTITIES[e] ?? all),
  );

function parseBounds(value: string | undefined): RawNode['bounds'] {
  const m = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/.exec(value ?? '');
  if (!m) return { x: 0, y: 0, width: 0, height: 0 };
  const [x1, y1, x2, y2] = m.slice(1).map(Number) as [number, number, number, number];
  return { x: x1, y: y1, width: Math.max(0, x2 - x1), height: Math.max(0, y2 - y1) };
}

/**
 * The hierarchy with every attribute kept. A node's selector is its identity across scans: the class
 * and resource id when it has one, else its path of classes with the index among same-class siblings.
 */
export function parseHierarchy(xml: string, limit = 5_000): RawNode[] {
  const all: RawNode[] = [];
  const stack: RawNode[] = [];
  const counts = new Map<RawNode | null, Map<string, number>>();
  const tag = /<(\/?)node\b([^>]*?)(\/?)>/g;
  for (let m = tag.exec(xml); m && all.length < limit; m = tag.exec(xml)) {
    const [, closing, body = '', selfClosing] = m;
    if (closing) {
      stack.pop();
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of body.matchAll(/([\w:-]+)="([^"]*)"/g)) attrs[a[1]!] = decode(a[2]!);
    const parent = stack[stack.length - 1] ?? null;
    const className = (attrs.class ?? 'node').split('.').pop() ?? 'node';
    const siblings = counts.get(parent) ?? new Map<string, number>();
    counts.set(parent, siblings);
    const index = siblings.get(className) ?? 0;
    siblings.set(className, index + 1);
    const path = `${parent ? `${parent.selector.split('#')[0]}/` : ''}${className}[${index}]`;
    const node: RawNode = { attrs, className, bounds: parseBounds(attrs.bounds), selector: attrs['resource-id'] ? `${className}#${attrs['resource-id']}` : path, parent, children: [] };
    parent?.children.push(node);
    all.push(node);
    if (!selfClosing) stack.push(node);
  }
  return all;
}

const isClickable = (n: RawNode) => n.attrs.clickable === 'true' || n.attrs['long-clickable'] === 'true';
const isImage = (n: RawNode) => /Image(View|Button)$/.test(n.className);
const isEditable = (n: RawNode) => /EditText|AutoCompleteTextView/.test(n.className);
const label = (n: RawNode) => (n.attrs['content-desc'] ?? '').trim() || (n.attrs.text ?? '').trim();
/** Whether a node or a descendant without its own click handler has something a screen reader speaks. */
function speakable(n: RawNode): boolean {
  if (label(n)) return true;
  return n.children.some((c) => !isClickable(c) && speakable(c));
}

/** Relative luminance (WCAG 2.x) of an sRGB colour. */
export function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}
export function contrastRatio(a: [number, number, number], b: [number, number, number]): number {
  const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (l1 + 0.05) / (l2 + 0.05);
}

/**
 * The text and background colours inside a text node's bounds, as ATF's contrast check estimates them:
 * the most frequent colour is the background, the most frequent of the rest the text. Null when the
 * area holds one colour only (nothing to measure).
 */
export function textColours(image: PNG, b: RawNode['bounds']): { foreground: [number, number, number]; background: [number, number, number] } | null {
  const counts = new Map<number, number>();
  const x2 = Math.min(image.width, b.x + b.width);
  const y2 = Math.min(image.height, b.y + b.height);
  for (let y = Math.max(0, b.y); y < y2; y++) {
    for (let x = Math.max(0, b.x); x < x2; x++) {
      const i = (y * image.width + x) * 4;
      const key = (image.data[i]! << 16) | (image.data[i + 1]! << 8) | image.data[i + 2]!;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const ranked = [...counts.entries()].sort((p, q) => q[1] - p[1]);
  if (ranked.length < 2) return null;
  const rgb = (k: number): [number, number, number] => [(k >> 16) & 255, (k >> 8) & 255, k & 255];
  return { background: rgb(ranked[0]![0]), foreground: rgb(ranked[1]![0]) };
}

/**
 * Findings of one screen. Checks covered (ATF names): TouchTargetSizeCheck, SpeakableTextPresentCheck,
 * TextContrastCheck, EditableContentDescCheck, DuplicateClickableBoundsCheck, RedundantDescriptionCheck,
 * DuplicateSpeakableTextCheck (as duplicate labels of clickable items), ClickableSpanCheck is not (no
 * spans in a dump), nor ImageContrastCheck, ClassNameCheck, TraversalOrderCheck, LinkPurposeUnclearCheck,
 * TextSizeCheck and UnexposedTextCheck (they need the accessibility service's own view of the screen).
 */
export function androidFindings(xml: string, png: Buffer | null, density: number): AccessibilityViolation[] {
  const nodes = parseHierarchy(xml);
  const dp = (px: number) => (px * 160) / (density || 160);
  const image = png ? PNG.sync.read(png) : null;
  const out: AccessibilityViolation[] = [];
  const finding = (n: RawNode, ruleId: string, impact: AccessibilityViolation['impact'], wcag: string[], description: string, help: string) =>
    out.push({ ruleId, impact, wcag, description, helpUrl: `${ATF}${help}`, element: { selector: n.selector, text: label(n).slice(0, 300), html: null, bounds: n.bounds } });
  const clickableBounds = new Map<string, RawNode>();
  const clickableLabels = new Map<string, RawNode>();
  for (const n of nodes) {
    const visible = n.bounds.width > 0 && n.bounds.height > 0;
    if (!visible) continue;
    if (isClickable(n)) {
      const w = dp(n.bounds.width);
      const h = dp(n.bounds.height);
      if (w < 48 || h < 48) {
        finding(n, 'touch-target-size', 'serious', ['2.5.5', '2.5.8'], `Touch target is ${Math.round(w)}x${Math.round(h)} dp; at least 48x48 dp is needed`, '7101858');
      }
      const key = `${n.bounds.x},${n.bounds.y},${n.bounds.width},${n.bounds.height}`;
      if (clickableBounds.has(key)) finding(n, 'duplicate-clickable-bounds', 'moderate', ['2.4.3'], 'Another clickable item has the same bounds', '6378943');
      else clickableBounds.set(key, n);
      const l = label(n).toLowerCase();
      if (l && clickableLabels.has(l)) finding(n, 'duplicate-speakable-text', 'minor', ['2.4.6'], 'Another clickable item has the same label', '7102020');
      else if (l) clickableLabels.set(l, n);
    }
    if ((isClickable(n) || isImage(n)) && !isEditable(n) && !speakable(n)) {
      finding(n, 'missing-label', 'critical', ['1.1.1', '4.1.2'], 'Clickable or image element has no content description or text for screen readers', '7158690');
    }
    if (isEditable(n) && (n.attrs['content-desc'] ?? '').trim()) {
      finding(n, 'editable-content-desc', 'moderate', ['1.3.1', '4.1.2'], 'Editable field has a content description; use a hint or a label instead', '6378120');
    }
    const desc = (n.attrs['content-desc'] ?? '').trim().toLowerCase();
    if (desc && /\b(button|image|checkbox|tab)\b/.test(desc) && (isClickable(n) || isImage(n))) {
      finding(n, 'redundant-description', 'minor', ['1.1.1'], "Content description names the element's type, which screen readers already announce", '6378184');
    }
    if (image && (n.attrs.text ?? '').trim() && !isEditable(n)) {
      const colours = textColours(image, n.bounds);
      if (colours) {
        const ratio = contrastRatio(colours.foreground, colours.background);
        if (ratio < 4.5) {
          finding(n, 'text-contrast', 'serious', ['1.4.3'], `Text contrast is ${ratio.toFixed(2)}:1; at least 4.5:1 is needed`, '7158390');
        }
      }
    }
  }
  return out;
}
