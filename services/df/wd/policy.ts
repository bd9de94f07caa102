/**
 * What the hub does with each WebDriver command, as data. A command is `METHOD /path`, the path
 * relative to `/session/{id}` (`''` for the session itself). The first rule whose method and pattern
 * match decides:
 *
 * - `allow`: relayed as it is;
 * - `require`: relayed only when the caller holds `permission`, else `unsupported operation` (403);
 * - `block`: never relayed (`unknown command`, 404, with the reason);
 * - `rewrite`: relayed with the body changed by the named rewriter.
 *
 * Commands no rule names are allowed (`*` at the end). `DELETE /session/{id}` itself is the hub's.
 */
export type PolicyAction =
  | { action: 'allow' }
  | { action: 'require'; permission: string; reason: string }
  | { action: 'block'; reason: string }
  | { action: 'rewrite'; rewriter: keyof typeof REWRITERS; reason: string };

export interface PolicyRule {
  /** HTTP method or `*`. */
  method: string;
  /** Anchored pattern of the path after `/session/{id}`. */
  path: string;
  then: PolicyAction;
}

/** Longest a client may ask one command to wait (implicit wait, page load, script). */
export const MAX_COMMAND_WAIT_MS = 5 * 60_000;

export const WEBDRIVER_POLICY: readonly PolicyRule[] = [
  // Moving files on or off the device, installing apps: the `df:app:install` permission.
  { method: 'POST', path: '/appium/device/(push_file|pull_file|pull_folder)', then: { action: 'require', permission: 'df:app:install', reason: 'moves files on the device' } },
  { method: 'POST', path: '/se/file', then: { action: 'require', permission: 'df:app:install', reason: 'uploads a file to the device' } },
  { method: 'POST', path: '/appium/device/(install_app|remove_app)', then: { action: 'require', permission: 'df:app:install', reason: 'installs or removes an app' } },
  { method: 'POST', path: '/appium/app/(install|remove)', then: { action: 'require', permission: 'df:app:install', reason: 'installs or removes an app' } },
  // Raw DevTools through WebDriver is debugging.
  { method: 'POST', path: '/(goog|ms)/cdp/execute', then: { action: 'require', permission: 'df:debug:use', reason: 'sends raw DevTools commands' } },
  // Commands that reach beyond the session's device or would change the host.
  { method: '*', path: '/appium/device/(shell|execute_driver)', then: { action: 'block', reason: 'runs commands on the device host' } },
  { method: 'POST', path: '/appium/execute_driver', then: { action: 'block', reason: 'runs scripts inside the Appium server' } },
  { method: '*', path: '/appium/(start|stop)_recording_screen', then: { action: 'block', reason: 'use the platform recording (POST /df/api/sessions/{id}/recording/start)' } },
  { method: 'POST', path: '/execute/(sync|async)', then: { action: 'rewrite', rewriter: 'executeScript', reason: '"mobile: shell" and other host commands are refused' } },
  // A command must not outlive the hub's own time-outs.
  { method: 'POST', path: '/timeouts', then: { action: 'rewrite', rewriter: 'timeouts', reason: `waits are capped at ${MAX_COMMAND_WAIT_MS} ms` } },
  { method: '*', path: '.*', then: { action: 'allow' } },
];

/** Body rewriters the policy names; each returns the body to send or a refusal. */
export const REWRITERS = {
  /** Caps every time-out a client sets at `MAX_COMMAND_WAIT_MS`. */
  timeouts(body: Record<string, unknown>): Record<string, unknown> | { refuse: string } {
    const out = { ...body };
    for (const key of ['implicit', 'pageLoad', 'script']) {
      const v = out[key];
      if (typeof v === 'number' && v > MAX_COMMAND_WAIT_MS) out[key] = MAX_COMMAND_WAIT_MS;
    }
    return out;
  },
  /** Refuses Appium's host-side `mobile:` extensions that run shell commands. */
  executeScript(body: Record<string, unknown>): Record<string, unknown> | { refuse: string } {
    const script = typeof body.script === 'string' ? body.script.trim().toLowerCase() : '';
    if (/^mobile:\s*(shell|execemuconsolecommand|installcertificate|pushfile|pullfile|pullfolder)\b/.test(script)) {
      return { refuse: `"${script.slice(0, 60)}" is not allowed through the hub` };
    }
    return body;
  },
} as const;

const compiled = WEBDRIVER_POLICY.map((rule) => ({ rule, re: new RegExp(`^${rule.path}$`) }));

/** The rule that decides a command. */
export function decide(method: string, path: string): PolicyRule {
  const m = method.toUpperCase();
  for (const { rule, re } of compiled) {
    if ((rule.method === '*' || rule.method === m) && re.test(path)) return rule;
  }
  return WEBDRIVER_POLICY[WEBDRIVER_POLICY.length - 1]!;
}
