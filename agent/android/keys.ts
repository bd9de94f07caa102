/** Key names of the control API (after the browser's `KeyboardEvent.key`) as Android key codes. */
const NAMED: Record<string, string> = {
  enter: 'KEYCODE_ENTER',
  return: 'KEYCODE_ENTER',
  backspace: 'KEYCODE_DEL',
  delete: 'KEYCODE_FORWARD_DEL',
  tab: 'KEYCODE_TAB',
  escape: 'KEYCODE_ESCAPE',
  esc: 'KEYCODE_ESCAPE',
  space: 'KEYCODE_SPACE',
  ' ': 'KEYCODE_SPACE',
  arrowup: 'KEYCODE_DPAD_UP',
  arrowdown: 'KEYCODE_DPAD_DOWN',
  arrowleft: 'KEYCODE_DPAD_LEFT',
  arrowright: 'KEYCODE_DPAD_RIGHT',
  up: 'KEYCODE_DPAD_UP',
  down: 'KEYCODE_DPAD_DOWN',
  left: 'KEYCODE_DPAD_LEFT',
  right: 'KEYCODE_DPAD_RIGHT',
  home: 'KEYCODE_HOME',
  back: 'KEYCODE_BACK',
  menu: 'KEYCODE_MENU',
  power: 'KEYCODE_POWER',
  volumeup: 'KEYCODE_VOLUME_UP',
  volumedown: 'KEYCODE_VOLUME_DOWN',
  volumemute: 'KEYCODE_VOLUME_MUTE',
  appswitch: 'KEYCODE_APP_SWITCH',
  recents: 'KEYCODE_APP_SWITCH',
  pageup: 'KEYCODE_PAGE_UP',
  pagedown: 'KEYCODE_PAGE_DOWN',
  end: 'KEYCODE_MOVE_END',
  camera: 'KEYCODE_CAMERA',
  search: 'KEYCODE_SEARCH',
  wakeup: 'KEYCODE_WAKEUP',
  sleep: 'KEYCODE_SLEEP',
};

/** The `input keyevent` code of a key name (`Enter`, `Back`, `ArrowUp`, `a`, `KEYCODE_X`), or null. */
export function androidKeyCode(key: string): string | null {
  if (/^KEYCODE_[A-Z0-9_]+$/.test(key)) return key;
  const named = NAMED[key.toLowerCase()];
  if (named) return named;
  if (/^[a-zA-Z]$/.test(key)) return `KEYCODE_${key.toUpperCase()}`;
  if (/^[0-9]$/.test(key)) return `KEYCODE_${key}`;
  return null;
}
