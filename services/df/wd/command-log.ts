import type { WireAnswer } from './transport.js';

/**
 * The command log of a WebDriver session: one entry per command the hub relayed or refused, kept on
 * the session's timeline (`DeviceSessionActivityRecorded`, `detail.source = "webdriver"`) and served as
 * JSON and text by `GET /df/api/sessions/{id}/webdriver-log`. An entry names the W3C command, the
 * element it acted on, what it looked for, how long it took and how it ended. Typed text is never
 * kept (its length is), nor are cookie values, script arguments or what a command read from the page
 * beyond a few safe answers (title, URL, element ids, states).
 */

/** The element reference key of the W3C protocol (and the legacy JSON wire one). */
const ELEMENT_KEYS = ['element-6066-11e4-a52e-4f735466cecf', 'ELEMENT'];
const SHADOW_KEY = 'shadow-6066-11e4-a52e-4f735466cecf';
const TEXT_LIMIT = 300;

/** W3C (and common Appium) commands by method and path after `/session/{id}`; `{e}` an element id. */
const COMMANDS: readonly [method: string, path: string, name: string][] = [
  ['POST', '/url', 'navigateTo'],
  ['GET', '/url', 'getCurrentUrl'],
  ['POST', '/back', 'back'],
  ['POST', '/forward', 'forward'],
  ['POST', '/refresh', 'refresh'],
  ['GET', '/title', 'getTitle'],
  ['GET', '/window', 'getWindowHandle'],
  ['DELETE', '/window', 'closeWindow'],
  ['POST', '/window', 'switchToWindow'],
  ['GET', '/window/handles', 'getWindowHandles'],
  ['POST', '/window/new', 'newWindow'],
  ['POST', '/frame', 'switchToFrame'],
  ['POST', '/frame/parent', 'switchToParentFrame'],
  ['GET', '/window/rect', 'getWindowRect'],
  ['POST', '/window/rect', 'setWindowRect'],
  ['POST', '/window/maximize', 'maximizeWindow'],
  ['POST', '/window/minimize', 'minimizeWindow'],
  ['POST', '/window/fullscreen', 'fullscreenWindow'],
  ['GET', '/element/active', 'getActiveElement'],
  ['POST', '/element', 'findElement'],
  ['POST', '/elements', 'findElements'],
  ['POST', '/element/{e}/element', 'findElementFromElement'],
  ['POST', '/element/{e}/elements', 'findElementsFromElement'],
  ['POST', '/shadow/{e}/element', 'findElementFromShadowRoot'],
  ['POST', '/shadow/{e}/elements', 'findElementsFromShadowRoot'],
  ['GET', '/element/{e}/shadow', 'getElementShadowRoot'],
  ['GET', '/element/{e}/selected', 'isElementSelected'],
  ['GET', '/element/{e}/attribute/{name}', 'getElementAttribute'],
  ['GET', '/element/{e}/property/{name}', 'getElementProperty'],
  ['GET', '/element/{e}/css/{name}', 'getElementCSSValue'],
  ['GET', '/element/{e}/text', 'getElementText'],
  ['GET', '/element/{e}/name', 'getElementTagName'],
  ['GET', '/element/{e}/rect', 'getElementRect'],
  ['GET', '/element/{e}/enabled', 'isElementEnabled'],
  ['GET', '/element/{e}/displayed', 'isElementDisplayed'],
  ['GET', '/element/{e}/computedrole', 'getElementComputedRole'],
  ['GET', '/element/{e}/computedlabel', 'getElementComputedLabel'],
  ['POST', '/element/{e}/click', 'elementClick'],
  ['POST', '/element/{e}/clear', 'elementClear'],
  ['POST', '/element/{e}/value', 'elementSendKeys'],
  ['GET', '/element/{e}/screenshot', 'takeElementScreenshot'],
  ['GET', '/source', 'getPageSource'],
  ['POST', '/execute/sync', 'executeScript'],
  ['POST', '/execute/async', 'executeAsyncScript'],
  ['GET', '/cookie', 'getAllCookies'],
  ['GET', '/cookie/{name}', 'getNamedCookie'],
  ['POST', '/cookie', 'addCookie'],
  ['DELETE', '/cookie/{name}', 'deleteCookie'],
  ['DELETE', '/cookie', 'deleteAllCookies'],
  ['POST', '/actions', 'performActions'],
  ['DELETE', '/actions', 'releaseActions'],
  ['POST', '/alert/dismiss', 'dismissAlert'],
  ['POST', '/alert/accept', 'acceptAlert'],
  ['GET', '/alert/text', 'getAlertText'],
  ['POST', '/alert/text', 'sendAlertText'],
  ['GET', '/screenshot', 'takeScreenshot'],
  ['POST', '/print', 'printPage'],
  ['GET', '/timeouts', 'getTimeouts'],
  ['POST', '/timeouts', 'setTimeouts'],
  ['GET', '', 'getSession'],
  ['GET', '/orientation', 'getOrientation'],
  ['POST', '/orientation', 'setOrientation'],
  ['GET', '/context', 'getContext'],
  ['POST', '/context', 'switchContext'],
  ['GET', '/contexts', 'getContexts'],
  ['POST', '/appium/device/hide_keyboard', 'hideKeyboard'],
  ['POST', '/appium/device/lock', 'lock'],
  ['POST', '/appium/device/unlock', 'unlock'],
  ['POST', '/appium/device/press_keycode', 'pressKeyCode'],
  ['POST', '/appium/device/activate_app', 'activateApp'],
  ['POST', '/appium/device/terminate_app', 'terminateApp'],
];

const SEGMENT = '[^/]+';
const compiled = COMMANDS.map(([method, path, name]) => ({
  method,
  name,
  template: path.replaceAll('{e}', '{elementId}'),
  re: new RegExp(`^${path.replaceAll('{e}', `(${SEGMENT})`).replaceAll('{name}', SEGMENT)}$`),
}));

const NAMED = new Set(COMMANDS.map(([, , name]) => name));

/** The command's name as a metric label: a W3C name, or `other` (an unnamed command's text is its path). */
export const metricNameOf = (command: string): string => (NAMED.has(command) ? command : 'other');

/** The command's W3C name and path template (`/element/{elementId}/click`), and the element it names. */
export function commandOf(method: string, rest: string): { command: string; path: string; element: string | null } {
  for (const c of compiled) {
    if (c.method !== method) continue;
    const m = c.re.exec(rest);
    if (m) return { command: c.name, path: c.template, element: m[1] ? decodeURIComponent(m[1]) : null };
  }
  // Not one we know by name: its method and path, element ids shown as such.
  const element = /^\/element\/([^/]+)\//.exec(rest)?.[1] ?? null;
  const path = element && element !== 'active' ? rest.replace(`/element/${element}/`, '/element/{elementId}/') : rest;
  return { command: `${method} ${path || '/'}`, path: path || '/', element: element && element !== 'active' ? decodeURIComponent(element) : null };
}

const clip = (v: string, n = TEXT_LIMIT) => (v.length > n ? `${v.slice(0, n)}…` : v);
const masked = (text: string) => `[${[...text].length} characters]`;

/** What of a command's body the log keeps: safe fields only, typed text as its length. */
export function argumentsOf(command: string, body: unknown): Record<string, unknown> | null {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  switch (command) {
    case 'navigateTo':
      return { url: typeof b.url === 'string' ? clip(b.url, 2_000) : null };
    case 'findElement':
    case 'findElements':
    case 'findElementFromElement':
    case 'findElementsFromElement':
    case 'findElementFromShadowRoot':
    case 'findElementsFromShadowRoot':
      return { using: typeof b.using === 'string' ? b.using : null, value: typeof b.value === 'string' ? clip(b.value) : null };
    case 'elementSendKeys':
    case 'sendAlertText': {
      const text = typeof b.text === 'string' ? b.text : Array.isArray(b.value) ? b.value.join('') : '';
      // Typed text can hold secrets: the log keeps its length, not its content (as the timeline does for typing).
      return { text: masked(text) };
    }
    case 'executeScript':
    case 'executeAsyncScript':
      return { script: typeof b.script === 'string' ? clip(b.script) : null, args: Array.isArray(b.args) ? b.args.length : 0 };
    case 'addCookie': {
      const cookie = (b.cookie ?? {}) as Record<string, unknown>;
      return { name: typeof cookie.name === 'string' ? clip(cookie.name, 100) : null };
    }
    case 'performActions':
      return { actions: actionsSummary(b.actions) };
    case 'setTimeouts':
    case 'setWindowRect':
    case 'switchToWindow':
    case 'newWindow':
    case 'setOrientation':
    case 'switchContext':
    case 'switchToFrame': {
      const kept: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(b)) if (typeof v === 'number' || typeof v === 'boolean' || (typeof v === 'string' && v.length <= 200)) kept[k] = v;
      return Object.keys(kept).length > 0 ? kept : null;
    }
    default:
      return null;
  }
}

/** Input sources of `performActions`: their kind and number of steps; keys typed as a count of characters. */
function actionsSummary(actions: unknown): unknown[] {
  if (!Array.isArray(actions)) return [];
  return actions.slice(0, 20).map((source: unknown) => {
    const s = (typeof source === 'object' && source !== null ? source : {}) as { type?: unknown; id?: unknown; actions?: unknown };
    const steps = Array.isArray(s.actions) ? (s.actions as { type?: unknown }[]) : [];
    const summary: Record<string, unknown> = { type: typeof s.type === 'string' ? s.type : null, steps: steps.length };
    if (s.type === 'key') summary.typed = masked(steps.filter((a) => a?.type === 'keyDown').map(() => 'x').join(''));
    return summary;
  });
}

/** Commands whose answer the log keeps (short, and not what someone typed). */
const KEEP_RESULT = new Set([
  'getTitle',
  'getCurrentUrl',
  'getWindowHandle',
  'isElementSelected',
  'isElementEnabled',
  'isElementDisplayed',
  'getElementTagName',
  'getElementRect',
  'getWindowRect',
  'getContext',
  'getOrientation',
]);

function elementIdOf(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  for (const key of [...ELEMENT_KEYS, SHADOW_KEY]) {
    const id = (value as Record<string, unknown>)[key];
    if (typeof id === 'string') return id;
  }
  return null;
}

/** What the log keeps of a successful answer: found element ids, sizes, and the answers of `KEEP_RESULT`. */
export function resultOf(command: string, value: unknown, answerBytes: number): unknown {
  if (command === 'findElement' || command === 'findElementFromElement' || command === 'findElementFromShadowRoot' || command === 'getActiveElement' || command === 'getElementShadowRoot') {
    return elementIdOf(value) === null ? null : { element: elementIdOf(value) };
  }
  if (command.startsWith('findElements')) {
    const ids = Array.isArray(value) ? value.map(elementIdOf).filter((id): id is string => id !== null) : [];
    return { count: ids.length, elements: ids.slice(0, 20) };
  }
  if (command === 'takeScreenshot' || command === 'takeElementScreenshot' || command === 'printPage' || command === 'getPageSource') {
    return { bytes: typeof value === 'string' ? (command === 'getPageSource' ? Buffer.byteLength(value) : Math.floor((value.length * 3) / 4)) : answerBytes };
  }
  if (KEEP_RESULT.has(command)) return typeof value === 'string' ? clip(value) : value;
  return undefined;
}

/** How a command ended. */
export type Outcome = { outcome: 'success'; status: number; result?: unknown } | { outcome: 'error'; status: number; error: string; message: string };

/** The outcome of an answer from the device's WebDriver server. */
export function outcomeOf(command: string, answer: WireAnswer): Outcome {
  let parsed: { value?: unknown } | null = null;
  try {
    parsed = JSON.parse(answer.body.toString('utf8')) as { value?: unknown };
  } catch {
    parsed = null;
  }
  const value = parsed?.value;
  if (answer.status >= 200 && answer.status < 300) {
    const result = resultOf(command, value, answer.body.length);
    return { outcome: 'success', status: answer.status, ...(result !== undefined ? { result } : {}) };
  }
  const v = (typeof value === 'object' && value !== null ? value : {}) as { error?: unknown; message?: unknown };
  return {
    outcome: 'error',
    status: answer.status,
    error: typeof v.error === 'string' ? v.error : 'unknown error',
    message: typeof v.message === 'string' ? clip(v.message.split('\n')[0] ?? '', 500) : `HTTP ${answer.status}`,
  };
}

/** One entry of the log, as it is kept in the timeline entry's detail. */
export interface CommandEntry {
  source: 'webdriver';
  command: string;
  method: string;
  path: string;
  element: string | null;
  args: Record<string, unknown> | null;
  startedAt: string;
  durationMs: number;
  outcome: 'success' | 'error';
  status: number;
  result?: unknown;
  error?: string;
  message?: string;
}

/**
 * One line of the text log:
 * `2026-01-01 12:00:01.234     3      41 ms  findElement  POST /element  using="css selector" value="#target"  OK 200 → {"element":"5"}`.
 */
export function textLine(n: number, entry: Partial<CommandEntry>): string {
  const time = (entry.startedAt ?? '').replace('T', ' ').replace('Z', '');
  const request = `${entry.method ?? ''} ${entry.path ?? ''}`.trim();
  // A command the hub has no name for is named by its request already.
  const parts = [time, String(n).padStart(5), `${String(entry.durationMs ?? 0).padStart(6)} ms`, entry.command ?? '', entry.command === request ? '' : request];
  const args = entry.args ? Object.entries(entry.args).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ') : '';
  const element = entry.element ? `element=${entry.element}` : '';
  const ended = entry.outcome === 'error' ? `ERROR ${entry.status} ${entry.error}: ${entry.message}` : `OK ${entry.status ?? ''}${entry.result !== undefined && entry.result !== null ? ` → ${JSON.stringify(entry.result)}` : ''}`;
  return [...parts, element, args, ended].filter((p) => p !== '').join('  ');
}
