import type { DebugTarget } from '@qa-platform/client';

/** A debug target as `GET /df/api/sessions/{id}/debug-targets` lists it (the API's own shape). */
export type { DebugTarget };

/** The port `dfctl forward` listens on at the desk for a JDWP process: any free one will do. */
export const LOCAL_JDWP_PORT = 8700;

/**
 * The command a developer runs at the desk to reach a target through the debug tunnel, chosen by the
 * target's protocol (an iOS device is reached through usbmux, not adb; a Safari page through the Web
 * Inspector, which has no dfctl command). Null when dfctl has none.
 */
export function commandFor(sessionId: string, target: DebugTarget): string | null {
  switch (target.protocol) {
    case 'adb':
      return `dfctl adb ${sessionId}`;
    case 'usbmux':
      return `dfctl usbmux ${sessionId}`;
    case 'jdwp':
      return target.pid === undefined ? null : `dfctl forward ${sessionId} ${LOCAL_JDWP_PORT}:jdwp:${target.pid}`;
    case 'cdp':
      return `dfctl devtools ${sessionId}`;
    default:
      return null;
  }
}
