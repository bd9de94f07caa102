import type { ControlAction, RpcResult, UiNode } from '#shared/wire/index.js';
import { DriverError, unknownAction } from '../provider.js';
import type { IosContext } from './context.js';
import type { Wda } from './wda.js';

/** Keys typed as characters through `/wda/keys` (XCUITest's key codes for them). */
const TYPED_KEYS: Record<string, string> = { enter: '\n', return: '\n', backspace: '\b', tab: '\t', space: ' ', ' ': ' ', delete: '\u007f', escape: '\u001b', esc: '\u001b' };
/** Hardware buttons WDA presses (`/wda/pressButton`). */
const BUTTONS: Record<string, string> = { volumeup: 'volumeUp', volumedown: 'volumeDown' };

/** A WDA element as `/source?format=json` answers it (points). */
interface WdaElement {
  type?: string;
  name?: string | null;
  label?: string | null;
  value?: string | null;
  rect?: { x: number; y: number; width: number; height: number };
  children?: WdaElement[];
}

/**
 * Touch, text, keys, orientation and the UI tree of an iOS device through WebDriverAgent. Coordinates
 * arrive in screenshot pixels and go to WDA in points (pixels / the screen's scale); the tree comes back
 * from points to pixels.
 */
export class IosInput {
  constructor(
    private readonly ctx: IosContext,
    private readonly wda: Wda,
  ) {}

  private get scale(): number {
    return this.ctx.info.screen.scale || 1;
  }

  private pt(px: number): number {
    return Math.round((px / this.scale) * 100) / 100;
  }

  async control(action: ControlAction): Promise<RpcResult<'control'>> {
    this.ctx.requirePrepared();
    const sid = this.wda.session();
    const s = `/session/${sid}`;
    switch (action.action) {
      case 'tap':
        await this.pointer(s, [{ x: action.x, y: action.y, pauseMs: 50 }]);
        return {};
      case 'longPress':
        await this.pointer(s, [{ x: action.x, y: action.y, pauseMs: action.durationMs ?? 1_000 }]);
        return {};
      case 'swipe':
        await this.pointer(s, [
          { x: action.x1, y: action.y1, pauseMs: 50 },
          { x: action.x2, y: action.y2, moveMs: action.durationMs ?? 300 },
        ]);
        return {};
      case 'pinch':
        await this.pinch(s, action);
        return {};
      case 'text':
        await this.wda.client.call('POST', `${s}/wda/keys`, { value: Array.from(action.text) });
        return {};
      case 'key':
        await this.key(s, action.key);
        return {};
      case 'home':
        await this.wda.client.call('POST', '/wda/homescreen', {});
        return {};
      case 'back':
        throw new DriverError('UNSUPPORTED', 'iOS has no back key; swipe from the left edge or tap the app\'s own back button');
      case 'rotate':
        await this.wda.client.call('POST', `${s}/orientation`, { orientation: action.orientation === 'portrait' ? 'PORTRAIT' : 'LANDSCAPE' });
        return { orientation: action.orientation };
      case 'openUrl':
        await this.wda.client.call('POST', `${s}/url`, { url: action.url });
        return { url: action.url };
      default:
        throw unknownAction(action);
    }
  }

  async uiTree(): Promise<RpcResult<'uiTree'>> {
    this.ctx.requirePrepared();
    const root = await this.wda.client.call<WdaElement>('GET', `/session/${this.wda.session()}/source?format=json`);
    if (!root || typeof root !== 'object') throw new DriverError('DEVICE_ERROR', 'WebDriverAgent answered no UI tree');
    const title = root.label ?? root.name ?? '';
    return { url: '', title: String(title), root: this.node(root, 0) };
  }

  private node(e: WdaElement, depth: number): UiNode {
    const r = e.rect ?? { x: 0, y: 0, width: 0, height: 0 };
    const role = (e.type ?? 'Other').replace(/^XCUIElementType/, '');
    return {
      role,
      name: String(e.label ?? e.name ?? ''),
      tag: e.type ?? 'XCUIElementTypeOther',
      ...(e.name ? { id: String(e.name) } : {}),
      ...(e.value !== null && e.value !== undefined && e.value !== '' ? { text: String(e.value) } : {}),
      bounds: { x: r.x * this.scale, y: r.y * this.scale, width: r.width * this.scale, height: r.height * this.scale },
      // A deep tree is cut rather than followed without end.
      children: depth >= 60 ? [] : (e.children ?? []).map((c) => this.node(c, depth + 1)),
    };
  }

  private async key(s: string, key: string): Promise<void> {
    const name = key.toLowerCase();
    if (name === 'home') return void (await this.wda.client.call('POST', '/wda/homescreen', {}));
    if (name === 'lock' || name === 'power' || name === 'sleep') return void (await this.wda.client.call('POST', `${s}/wda/lock`, {}));
    if (name === 'unlock' || name === 'wakeup') return void (await this.wda.client.call('POST', `${s}/wda/unlock`, {}));
    const button = BUTTONS[name];
    if (button) return void (await this.wda.client.call('POST', `${s}/wda/pressButton`, { name: button }));
    const typed = TYPED_KEYS[name] ?? (Array.from(key).length === 1 ? key : undefined);
    if (typed === undefined) throw new DriverError('BAD_REQUEST', `Unknown key "${key}" (iOS: home, lock, unlock, volumeup, volumedown, enter, backspace, tab, space, delete or one character)`);
    await this.wda.client.call('POST', `${s}/wda/keys`, { value: [typed] });
  }

  /** One finger through W3C actions: down at the first point, then moves to the next ones, then up. */
  /** Two fingers on a horizontal line through (x, y), from `fromDistance` apart to `toDistance` apart. */
  private async pinch(s: string, a: { x: number; y: number; fromDistance: number; toDistance: number; durationMs?: number | undefined }): Promise<void> {
    const finger = (id: string, side: -1 | 1) => ({
      type: 'pointer',
      id,
      parameters: { pointerType: 'touch' },
      actions: [
        { type: 'pointerMove', duration: 0, x: this.pt(Math.max(0, a.x + (side * a.fromDistance) / 2)), y: this.pt(a.y) },
        { type: 'pointerDown', button: 0 },
        { type: 'pointerMove', duration: a.durationMs ?? 300, x: this.pt(Math.max(0, a.x + (side * a.toDistance) / 2)), y: this.pt(a.y) },
        { type: 'pointerUp', button: 0 },
      ],
    });
    await this.wda.client.call('POST', `${s}/actions`, { actions: [finger('finger1', -1), finger('finger2', 1)] });
  }

  private async pointer(s: string, points: { x: number; y: number; pauseMs?: number; moveMs?: number }[]): Promise<void> {
    const [first, ...rest] = points;
    if (!first) return;
    const steps: Record<string, unknown>[] = [
      { type: 'pointerMove', duration: 0, x: this.pt(first.x), y: this.pt(first.y) },
      { type: 'pointerDown', button: 0 },
    ];
    if (first.pauseMs) steps.push({ type: 'pause', duration: first.pauseMs });
    for (const p of rest) steps.push({ type: 'pointerMove', duration: p.moveMs ?? 0, x: this.pt(p.x), y: this.pt(p.y) });
    steps.push({ type: 'pointerUp', button: 0 });
    await this.wda.client.call('POST', `${s}/actions`, { actions: [{ type: 'pointer', id: 'finger1', parameters: { pointerType: 'touch' }, actions: steps }] });
  }
}
