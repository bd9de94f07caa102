import type { Duplex } from 'node:stream';
import { DriverError, type DebugProtocol, type DebugTarget } from '../provider.js';
import type { IosContext } from './context.js';
import { usbmuxStream } from './usbmux-stream.js';
import { listInspectorTargets } from './web-inspector.js';

const DEBUGSERVER = ['com.apple.debugserver.DVTSecureSocketProxy', 'com.apple.debugserver'];

/**
 * Debug streams of an iOS device: device TCP ports (like `iproxy`), the web inspector service and its
 * pages, a usbmuxd endpoint showing only this device, and debugserver where lockdown starts it.
 */
export class IosDebug {
  /** The debugserver service lockdown starts (probed once per session), null when it refuses both. */
  private debugserver: string | null | undefined;

  constructor(private readonly ctx: IosContext) {}

  prepare(): void {
    this.debugserver = undefined;
  }

  async protocols(): Promise<DebugProtocol[]> {
    const protocols: DebugProtocol[] = ['tcp_forward', 'webkit_inspector', 'usbmux'];
    if ((await this.debugserverService()) !== null) protocols.push('lldb_rsp');
    return protocols;
  }

  async targets(): Promise<DebugTarget[]> {
    this.ctx.requirePrepared();
    const socket = await this.ctx.service('com.apple.webinspector');
    const pages = await listInspectorTargets(this.ctx.udid, socket, this.ctx.info.osVersion);
    // The device itself, for the usbmux stream (libimobiledevice's tools, Xcode-side clients).
    return [{ id: 'device', kind: 'device', title: `${this.ctx.info.name} (usbmuxd, this device only)`, protocol: 'usbmux' }, ...pages];
  }

  async open(protocol: DebugProtocol, target: string | undefined): Promise<Duplex> {
    this.ctx.requirePrepared();
    switch (protocol) {
      case 'tcp_forward': {
        const port = Number(target);
        if (!target || !/^\d{1,5}$/.test(target) || port < 1 || port > 65_535) throw new DriverError('BAD_REQUEST', 'tcp_forward takes a device TCP port (1-65535) as its target');
        try {
          return await this.ctx.usbmux.connectPort(this.ctx.udid, port);
        } catch (err) {
          throw new DriverError('DEVICE_ERROR', `Nothing answers on device port ${port}: ${(err as Error).message}`, { cause: err });
        }
      }
      case 'webkit_inspector':
        // The stream is the whole inspector service; a target (a page id from debugTargets) only names
        // which page the client means to talk to, so it is checked for shape, not opened.
        if (target !== undefined && !/^[A-Za-z]+:\d+\.\d+$/.test(target)) throw new DriverError('BAD_REQUEST', 'A web inspector target is a page id like PID:4242.1 (GET debug targets)');
        return this.ctx.service('com.apple.webinspector');
      case 'usbmux':
        return usbmuxStream(this.ctx.usbmux, this.ctx.udid);
      case 'lldb_rsp': {
        const name = await this.debugserverService();
        if (!name) throw new DriverError('UNSUPPORTED', 'The device offers no debugserver (it needs the developer disk image mounted)');
        return this.ctx.service(name);
      }
      default:
        throw new DriverError('UNSUPPORTED', `iOS devices do not offer ${protocol}`);
    }
  }

  private async debugserverService(): Promise<string | null> {
    if (this.debugserver !== undefined) return this.debugserver;
    for (const name of DEBUGSERVER) {
      try {
        const probe = await this.ctx.usbmux.startService(this.ctx.udid, name);
        probe.destroy();
        this.debugserver = name;
        return name;
      } catch {
        // refused: try the next name
      }
    }
    this.debugserver = null;
    return null;
  }
}
