import type { UiNode } from '#shared/wire/index.js';
import { DriverError } from '../provider.js';
import { shellQuote } from './adb.js';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (s: string) =>
  s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (all, e: string) =>
    e.startsWith('#x') ? String.fromCodePoint(parseInt(e.slice(2), 16)) : e.startsWith('#') ? String.fromCodePoint(Number(e.slice(1))) : (ENTITIES[e] ?? all),
  );

/** ARIA-like roles of common Android widget classes. */
function roleOf(className: string, attrs: Record<string, string>): string {
  const simple = className.split('.').pop() ?? className;
  if (/Button$/.test(simple) && !/RadioButton|ToggleButton/.test(simple)) return 'button';
  if (/EditText|AutoCompleteTextView/.test(simple)) return 'textbox';
  if (/CheckBox/.test(simple) || attrs.checkable === 'true') return 'checkbox';
  if (/RadioButton/.test(simple)) return 'radio';
  if (/Switch|ToggleButton/.test(simple)) return 'switch';
  if (/ImageView|ImageButton/.test(simple)) return 'img';
  if (/TextView/.test(simple)) return 'text';
  if (/ListView|RecyclerView|ScrollView/.test(simple) || attrs.scrollable === 'true') return 'list';
  if (/WebView/.test(simple)) return 'document';
  return attrs.clickable === 'true' ? 'button' : 'generic';
}

function bounds(value: string | undefined): UiNode['bounds'] {
  const m = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/.exec(value ?? '');
  if (!m) return { x: 0, y: 0, width: 0, height: 0 };
  const [x1, y1, x2, y2] = m.slice(1).map(Number) as [number, number, number, number];
  return { x: x1, y: y1, width: Math.max(0, x2 - x1), height: Math.max(0, y2 - y1) };
}

/**
 * Parses a `uiautomator dump` hierarchy into UI nodes (bounds in screen pixels, which are screenshot
 * pixels on Android). At most `limit` nodes; the root is the hierarchy itself.
 */
export function parseUiautomatorXml(xml: string, screen: { width: number; height: number }, limit = 3_000): { root: UiNode; packageName: string | null } {
  const root: UiNode = { role: 'document', name: 'hierarchy', bounds: { x: 0, y: 0, width: screen.width, height: screen.height }, children: [] };
  const stack: UiNode[] = [root];
  let count = 0;
  let packageName: string | null = null;
  const tag = /<(\/?)node\b([^>]*?)(\/?)>/g;
  for (let m = tag.exec(xml); m; m = tag.exec(xml)) {
    const [, closing, body = '', selfClosing] = m;
    if (closing) {
      if (stack.length > 1) stack.pop();
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of body.matchAll(/([\w:-]+)="([^"]*)"/g)) attrs[a[1]!] = decode(a[2]!);
    packageName ??= attrs.package || null;
    const text = attrs.text ?? '';
    const node: UiNode = {
      role: roleOf(attrs.class ?? '', attrs),
      name: attrs['content-desc'] || text,
      tag: attrs.class ?? 'node',
      ...(attrs['resource-id'] ? { id: attrs['resource-id'] } : {}),
      ...(text ? { text } : {}),
      bounds: bounds(attrs.bounds),
      children: [],
    };
    count += 1;
    if (count <= limit) stack[stack.length - 1]!.children.push(node);
    if (!selfClosing) stack.push(node);
  }
  return { root, packageName };
}

/** The `uiautomator dump` hierarchy as XML, through `sh`; `scratch`: a folder to dump to where the terminal cannot be written. */
export async function dumpHierarchy(sh: (command: string) => Promise<string>, scratch: string): Promise<string> {
  let out = await sh('uiautomator dump /dev/tty');
  if (!out.includes('<hierarchy')) {
    // Some builds cannot write to the terminal; a file in the scratch folder always works.
    const file = `${scratch}/window_dump.xml`;
    await sh(`uiautomator dump ${shellQuote(file)}`);
    out = await sh(`cat ${shellQuote(file)}`);
    await sh(`rm -f ${shellQuote(file)}`);
  }
  const start = out.indexOf('<?xml') >= 0 ? out.indexOf('<?xml') : out.indexOf('<hierarchy');
  const end = out.lastIndexOf('</hierarchy>');
  if (start < 0 || end < 0) throw new DriverError('DEVICE_ERROR', `uiautomator gave no hierarchy: ${out.trim().slice(0, 200)}`);
  return out.slice(start, end + '</hierarchy>'.length);
}
