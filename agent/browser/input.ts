import { DriverError } from '../provider.js';
import { keyDefinition } from './keys.js';
import type { BrowserProfile } from './profiles.js';

/** A CDP command on the session's page. */
export type CdpCall = <T = Record<string, unknown>>(method: string, params?: object) => Promise<T>;

/** A point in CSS pixels of the page. */
export type Point = { x: number; y: number };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A key pressed and released (`Enter`, `Backspace`, …); an unknown key is refused. */
export async function pressKey(call: CdpCall, key: string): Promise<void> {
  const def = keyDefinition(key);
  if (!def) throw new DriverError('BAD_REQUEST', `Unknown key "${key}"`);
  const base = { key: def.key, code: def.code, windowsVirtualKeyCode: def.keyCode, nativeVirtualKeyCode: def.keyCode };
  await call('Input.dispatchKeyEvent', { type: def.text ? 'keyDown' : 'rawKeyDown', ...base, ...(def.text ? { text: def.text, unmodifiedText: def.text } : {}) });
  await call('Input.dispatchKeyEvent', { type: 'keyUp', ...base });
}

/** A tap (a touch, or a click on a desktop) held for `holdMs`. */
export async function press(call: CdpCall, profile: BrowserProfile, at: Point, holdMs: number): Promise<void> {
  if (profile.touch) {
    await call('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [at] });
    if (holdMs > 0) await pause(holdMs);
    await call('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    return;
  }
  await call('Input.dispatchMouseEvent', { type: 'mouseMoved', ...at });
  await call('Input.dispatchMouseEvent', { type: 'mousePressed', ...at, button: 'left', buttons: 1, clickCount: 1 });
  if (holdMs > 0) await pause(holdMs);
  await call('Input.dispatchMouseEvent', { type: 'mouseReleased', ...at, button: 'left', buttons: 0, clickCount: 1 });
}

/** A finger moved from one point to another over `durationMs` (on a desktop, the scroll it would cause). */
export async function swipe(call: CdpCall, profile: BrowserProfile, from: Point, to: Point, durationMs: number): Promise<void> {
  if (!profile.touch) {
    // A desktop has no finger: the swipe is the scroll it would cause (content follows the finger).
    await call('Input.dispatchMouseEvent', { type: 'mouseWheel', ...from, deltaX: from.x - to.x, deltaY: from.y - to.y });
    return;
  }
  const steps = Math.max(5, Math.min(60, Math.round(durationMs / 16)));
  await call('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
  for (let i = 1; i <= steps; i++) {
    const point = { x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps };
    await pause(durationMs / steps);
    await call('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point] });
  }
  await call('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}
