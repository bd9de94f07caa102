import { describe, expect, it } from 'vitest';
import { commandFor, type DebugTarget } from '../../cli/dfctl/debug-commands.js';

/** The dfctl command that reaches each debug target: `dfctl targets` prints it, the console's debugging page shows it. */
const target = (over: Partial<DebugTarget>): DebugTarget => ({ id: 't', kind: 'device', title: 't', protocol: 'adb', tunnelPath: '/x', ...over });

describe('the dfctl command of a debug target', () => {
  it('follows the protocol: adb, usbmux, jdwp and cdp each have their command', () => {
    expect(commandFor('s1', target({ kind: 'device', protocol: 'adb' }))).toBe('dfctl adb s1');
    expect(commandFor('s1', target({ kind: 'device', protocol: 'usbmux' }))).toBe('dfctl usbmux s1');
    expect(commandFor('s1', target({ kind: 'process', protocol: 'jdwp', pid: 4242 }))).toBe('dfctl forward s1 8700:jdwp:4242');
    expect(commandFor('s1', target({ kind: 'page', protocol: 'cdp' }))).toBe('dfctl devtools s1');
    expect(commandFor('s1', target({ kind: 'webview', protocol: 'cdp' }))).toBe('dfctl devtools s1');
  });

  it('offers none where dfctl has none: an iOS page of the Web Inspector, a process without its pid', () => {
    expect(commandFor('s1', target({ kind: 'page', protocol: 'webkit_inspector' }))).toBeNull();
    expect(commandFor('s1', target({ kind: 'process', protocol: 'jdwp' }))).toBeNull();
    expect(commandFor('s1', target({ kind: 'process', protocol: 'lldb_rsp', pid: 7 }))).toBeNull();
  });
});
