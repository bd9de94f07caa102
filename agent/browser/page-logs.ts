import type { LogRing } from '../provider.js';
import type { CdpConnection } from './cdp.js';

/** Text of a console argument (a CDP RemoteObject). */
function describe(arg: { type?: string; value?: unknown; description?: string; unserializableValue?: string }): string {
  if (arg.value !== undefined) return typeof arg.value === 'string' ? arg.value : JSON.stringify(arg.value);
  return arg.unserializableValue ?? arg.description ?? String(arg.type ?? '');
}

const LEVELS: Record<string, 'debug' | 'info' | 'warn' | 'error'> = {
  debug: 'debug',
  verbose: 'debug',
  log: 'info',
  info: 'info',
  warning: 'warn',
  warn: 'warn',
  error: 'error',
  assert: 'error',
};

/** Copies the page's console messages, uncaught exceptions and log entries into the device's log. */
export function followPageLogs(cdp: CdpConnection, page: string, logRing: LogRing): void {
  cdp.on('Runtime.consoleAPICalled', (params, sessionId) => {
    if (sessionId !== page) return;
    const p = params as { type: string; args: Parameters<typeof describe>[0][] };
    logRing.push(LEVELS[p.type] ?? 'info', 'console', p.args.map(describe).join(' '));
  });
  cdp.on('Runtime.exceptionThrown', (params, sessionId) => {
    if (sessionId !== page) return;
    const d = (params as { exceptionDetails: { text: string; exception?: { description?: string } } }).exceptionDetails;
    logRing.push('error', 'exception', d.exception?.description ?? d.text);
  });
  cdp.on('Log.entryAdded', (params, sessionId) => {
    if (sessionId !== page) return;
    const e = (params as { entry: { level: string; source: string; text: string; url?: string } }).entry;
    logRing.push(LEVELS[e.level] ?? 'info', e.source, e.url ? `${e.text} (${e.url})` : e.text);
  });
}
