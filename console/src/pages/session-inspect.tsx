import { useEffect, useRef, useState } from 'preact/hooks';
import type { UiNode } from '@qa-platform/client';
import { api } from '../api';
import { Empty, ErrorNote, Loading } from '../ui';

/** A node with where it sits: its depth, its parent's place in the flat list, and a CSS selector. */
interface Flat {
  node: UiNode;
  level: number;
  parent: number;
  selector: string;
}

function flatten(root: UiNode): Flat[] {
  const out: Flat[] = [];
  const walk = (node: UiNode, level: number, parent: number, selector: string) => {
    const at = out.length;
    out.push({ node, level, parent, selector });
    const seen = new Map<string, number>();
    for (const child of node.children) {
      const tag = child.tag ?? '*';
      const nth = (seen.get(tag) ?? 0) + 1;
      seen.set(tag, nth);
      // An id is the shortest stable selector; otherwise the path of tags from the nearest one.
      walk(child, level + 1, at, child.id ? `#${CSS.escape(child.id)}` : `${selector} > ${tag}:nth-of-type(${nth})`);
    }
  };
  walk(root, 1, -1, root.id ? `#${CSS.escape(root.id)}` : (root.tag ?? 'body'));
  return out;
}

const contains = (b: UiNode['bounds'], x: number, y: number) => b.width > 0 && b.height > 0 && x >= b.x && y >= b.y && x < b.x + b.width && y < b.y + b.height;

/** The deepest node under a device point (later siblings are drawn above earlier ones). */
function deepestAt(flat: Flat[], x: number, y: number): number {
  let found = -1;
  for (let i = 0; i < flat.length; i++) {
    const f = flat[i]!;
    if (!contains(f.node.bounds, x, y)) continue;
    if (found === -1 || f.level >= flat[found]!.level) found = i;
  }
  return found;
}

export interface Inspector {
  on: boolean;
  toggle: () => void;
  refresh: () => void;
  loading: boolean;
  error: unknown;
  flat: Flat[];
  hovered: number;
  setHovered: (i: number) => void;
  selected: number;
  setSelected: (i: number) => void;
}

/** The inspector's state, shared by the overlay on the screen and the side panel. */
export function useInspector(sessionId: string): Inspector {
  const [on, setOn] = useState(false);
  const [flat, setFlat] = useState<Flat[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [hovered, setHovered] = useState(-1);
  const [selected, setSelected] = useState(-1);
  const load = () => {
    setLoading(true);
    setError(null);
    api<{ url: string; title: string; root: UiNode }>(`/df/api/sessions/${sessionId}/ui-tree`)
      .then((tree) => {
        setFlat(flatten(tree.root));
        setHovered(-1);
        setSelected(-1);
      })
      .catch(setError)
      .finally(() => setLoading(false));
  };
  return {
    on,
    toggle: () => {
      if (!on) load();
      setOn(!on);
    },
    refresh: load,
    loading,
    error,
    flat,
    hovered,
    setHovered,
    selected,
    setSelected,
  };
}

/** Where the frame is drawn inside the canvas element (object-fit: contain), relative to `frame`. */
function drawnBox(canvas: HTMLCanvasElement, frame: HTMLElement) {
  const rect = canvas.getBoundingClientRect();
  const outer = frame.getBoundingClientRect();
  const scale = Math.min(rect.width / canvas.width, rect.height / canvas.height);
  const width = canvas.width * scale;
  const height = canvas.height * scale;
  return { left: rect.left - outer.left + (rect.width - width) / 2, top: rect.top - outer.top + (rect.height - height) / 2, width, height };
}

/**
 * Lies over the live canvas while inspecting: it takes the pointer (so no click reaches the device),
 * outlines the deepest element under it and, on a click, selects that element.
 */
export function InspectOverlay({ inspector, canvas, screen }: { inspector: Inspector; canvas: { current: HTMLCanvasElement | null }; screen: { width: number; height: number } | null }) {
  const self = useRef<HTMLDivElement | null>(null);
  const [, relayout] = useState(0);
  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const observer = new ResizeObserver(() => relayout((n) => n + 1));
    observer.observe(c);
    return () => observer.disconnect();
  }, [canvas.current]);
  const c = canvas.current;
  const frame = self.current?.parentElement;
  if (!inspector.on || !c) return <div ref={self} hidden />;
  const box = frame ? drawnBox(c, frame) : { left: 0, top: 0, width: 0, height: 0 };
  // The device's size in the frame's orientation (a rotated device sends landscape frames).
  let w = screen?.width ?? c.width;
  let h = screen?.height ?? c.height;
  if (c.width > c.height !== w > h) [w, h] = [h, w];
  const sx = box.width / w;
  const sy = box.height / h;
  const shown = inspector.hovered !== -1 ? inspector.hovered : inspector.selected;
  const b = inspector.flat[shown]?.node.bounds;
  const at = (e: MouseEvent) => {
    const r = (e.currentTarget as HTMLElement).getBoundingClientRect();
    return deepestAt(inspector.flat, (e.clientX - r.left) / sx, (e.clientY - r.top) / sy);
  };
  return (
    <div
      ref={self}
      class="inspect-overlay"
      data-testid="inspect-overlay"
      style={{ left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`, height: `${box.height}px` }}
      onPointerMove={(e) => inspector.setHovered(at(e))}
      onPointerLeave={() => inspector.setHovered(-1)}
      onPointerDown={(e) => e.preventDefault()}
      onClick={(e) => inspector.setSelected(at(e))}
    >
      {b ? <div class="inspect-outline" style={{ left: `${b.x * sx}px`, top: `${b.y * sy}px`, width: `${b.width * sx}px`, height: `${b.height * sy}px` }} /> : null}
    </div>
  );
}

const label = (n: UiNode) => `${n.role}${n.name ? ` "${n.name.slice(0, 60)}"` : ''}${n.id ? ` #${n.id}` : ''}`;

/** The side panel: the element under the pointer (or the selected one), and the tree as a list. */
export function InspectPanel({ inspector }: { inspector: Inspector }) {
  const list = useRef<HTMLUListElement | null>(null);
  const { flat, selected } = inspector;
  const shown = inspector.hovered !== -1 ? inspector.hovered : selected;
  const f = flat[shown];
  useEffect(() => {
    if (selected === -1) return;
    const item = list.current?.querySelector<HTMLElement>(`[data-index="${selected}"]`);
    item?.scrollIntoView({ block: 'nearest' });
    if (list.current?.contains(document.activeElement)) item?.focus();
  }, [selected]);
  const onKey = (e: KeyboardEvent) => {
    const i = selected === -1 ? 0 : selected;
    let next = i;
    if (e.key === 'ArrowDown') next = Math.min(i + 1, flat.length - 1);
    else if (e.key === 'ArrowUp') next = Math.max(i - 1, 0);
    else if (e.key === 'ArrowLeft') next = flat[i]!.parent === -1 ? i : flat[i]!.parent;
    else if (e.key === 'ArrowRight') next = flat[i + 1]?.parent === i ? i + 1 : i;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = flat.length - 1;
    else return;
    e.preventDefault();
    inspector.setSelected(next);
  };
  return (
    <section class="stack inspect-panel" aria-label="Inspector">
      <div class="row">
        <h2>Inspector</h2>
        <button type="button" onClick={inspector.refresh} disabled={inspector.loading}>
          Refresh
        </button>
      </div>
      {inspector.loading ? <Loading label="Reading the page…" /> : null}
      <ErrorNote error={inspector.error} />
      {f ? (
        <dl class="inspect-details" aria-label="Element details">
          <dt>Role</dt>
          <dd>{f.node.role}</dd>
          <dt>Name</dt>
          <dd>{f.node.name || '—'}</dd>
          <dt>Text</dt>
          <dd>{f.node.text ?? '—'}</dd>
          <dt>Resource id</dt>
          <dd>{f.node.id ?? '—'}</dd>
          <dt>Selector</dt>
          <dd>
            <code>{f.selector}</code>
          </dd>
          <dt>Bounds</dt>
          <dd>
            {f.node.bounds.x}, {f.node.bounds.y} · {f.node.bounds.width} × {f.node.bounds.height}
          </dd>
        </dl>
      ) : (
        <Empty>Point at the screen or choose an element in the tree.</Empty>
      )}
      {flat.length > 0 ? (
        <ul class="inspect-tree" role="tree" aria-label="UI tree" ref={list} onKeyDown={onKey}>
          {flat.map((item, i) => (
            <li
              role="treeitem"
              data-index={i}
              aria-level={item.level}
              aria-selected={i === selected}
              tabIndex={i === (selected === -1 ? 0 : selected) ? 0 : -1}
              class={i === shown ? 'current' : undefined}
              style={{ paddingLeft: `${(item.level - 1) * 0.75}rem` }}
              onClick={() => inspector.setSelected(i)}
            >
              {label(item.node)}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
