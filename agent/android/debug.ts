import { connect, type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { DriverError, type DebugProtocol, type DebugTarget } from '../provider.js';
import { shell, type AdbClient, type AdbDevice } from './adb.js';

/** How long a listing of JDWP processes may take before the device is taken to have none. */
const JDWP_LIST_TIMEOUT_MS = 5_000;
const DEVTOOLS_SOCKET = /@((?:chrome|webview)_devtools_remote(?:_\d+)?)$/;
/** Processes whose names are looked up (one shell command each). */
const MAX_NAMED_PROCESSES = 50;
const SOCKET_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

export interface AndroidDebugOptions {
  client: AdbClient;
  /** The adb server the agent uses, for the interactive shell (`adb -H -P -s shell`). */
  adbHost: string;
  adbPort: number;
  /** The `adb` command on the agent's machine. */
  adbBinary: string;
  logger: Logger;
}

type TcpUsbBridge = ReturnType<AdbClient['createTcpUsbBridge']>;

/**
 * Remote debugging of one Android device, as STF offers it: the whole device as an adbd endpoint (a
 * bridge that speaks the device side of the adb transport and carries every service to the agent's
 * adb server), JDWP processes, device TCP ports and DevTools sockets as raw streams, and an
 * interactive shell for a pseudo-terminal.
 */
export class AndroidDebug {
  private bridge: { server: TcpUsbBridge; port: number } | null = null;
  private bridgeStarting: Promise<{ server: TcpUsbBridge; port: number }> | null = null;
  /** Connections to the bridge handed out as streams, dropped when the device goes. */
  private readonly bridged = new Set<Duplex>();

  constructor(
    private readonly serial: string,
    private readonly device: AdbDevice,
    private readonly options: AndroidDebugOptions,
  ) {}

  protocols(hasDevtools: boolean): DebugProtocol[] {
    return hasDevtools ? ['adb', 'jdwp', 'tcp_forward', 'cdp'] : ['adb', 'jdwp', 'tcp_forward'];
  }

  /** Debuggable processes (JDWP pids with their package names) and DevTools sockets (Chrome, WebViews). */
  async targets(): Promise<DebugTarget[]> {
    const targets: DebugTarget[] = [{ id: 'device', kind: 'device', title: `adb: ${this.serial}`, protocol: 'adb' }];
    const pids = await this.jdwpPids();
    const names = pids.length > 0 ? await this.processNames(pids) : new Map<number, string>();
    for (const pid of pids) {
      const name = names.get(pid);
      targets.push({ id: String(pid), kind: 'process', title: name ? `${name} (${pid})` : `pid ${pid}`, pid, ...(name ? { package: name } : {}), protocol: 'jdwp' });
    }
    for (const socket of await this.devtoolsSockets()) {
      const pid = /_(\d+)$/.exec(socket)?.[1];
      const webview = socket.startsWith('webview_');
      const name = pid ? names.get(Number(pid)) : undefined;
      targets.push({
        id: socket,
        kind: webview ? 'webview' : 'page',
        title: webview ? `WebView${name ? ` in ${name}` : pid ? ` (pid ${pid})` : ''}` : 'Chrome',
        ...(pid ? { pid: Number(pid) } : {}),
        ...(name ? { package: name } : {}),
        protocol: 'cdp',
      });
    }
    return targets;
  }

  async open(protocol: DebugProtocol, target: string | undefined): Promise<Duplex> {
    switch (protocol) {
      case 'adb': {
        if (target !== undefined && target !== 'device') throw new DriverError('BAD_REQUEST', 'The adb protocol takes no target');
        const { port } = await this.startBridge();
        const socket = await connectLoopback(port);
        this.bridged.add(socket);
        socket.once('close', () => this.bridged.delete(socket));
        return socket;
      }
      case 'jdwp': {
        const pid = Number(target);
        if (!target || !/^\d{1,9}$/.test(target) || pid <= 0) throw new DriverError('BAD_REQUEST', 'jdwp needs a process id as its target');
        return this.openService(`jdwp:${pid}`);
      }
      case 'tcp_forward': {
        const port = Number(target);
        if (!target || !/^\d{1,5}$/.test(target) || port < 1 || port > 65_535) throw new DriverError('BAD_REQUEST', 'tcp_forward needs a device port (1-65535) as its target');
        return this.openTcp(port);
      }
      case 'cdp': {
        const name = target ?? 'chrome_devtools_remote';
        if (!SOCKET_NAME.test(name)) throw new DriverError('BAD_REQUEST', 'cdp takes a DevTools socket name as its target');
        return this.openService(`localabstract:${name}`);
      }
      default:
        throw new DriverError('UNSUPPORTED', `An Android device does not offer ${protocol}`);
    }
  }

  /** `adb -H <host> -P <port> -s <serial> shell`: an interactive shell when run in a pseudo-terminal. */
  shellCommand(): { file: string; args: string[] } {
    return { file: this.options.adbBinary, args: ['-H', this.options.adbHost, '-P', String(this.options.adbPort), '-s', this.serial, 'shell'] };
  }

  async close(): Promise<void> {
    const bridge = this.bridge ?? (await this.bridgeStarting?.catch(() => null)) ?? null;
    this.bridge = null;
    this.bridgeStarting = null;
    for (const socket of this.bridged) socket.destroy();
    this.bridged.clear();
    // The listening socket closes now; the bridge's side of each connection follows the destroyed ends.
    bridge?.server.end();
  }

  /** The device's bridge on a loopback port of the agent (started on first use, kept for the device's life). */
  private startBridge(): Promise<{ server: TcpUsbBridge; port: number }> {
    if (this.bridge) return Promise.resolve(this.bridge);
    this.bridgeStarting ??= new Promise((resolve, reject) => {
      // Every adb server that reaches the bridge went through the gateway's authorization of the
      // session and the `adb` grant; the RSA key it offers is accepted like a phone whose user
      // tapped "Allow".
      const server = this.options.client.createTcpUsbBridge(this.serial, { auth: () => Promise.resolve() } as never);
      server.on('error', (err: Error) => {
        this.options.logger.warn({ serial: this.serial, err: err.message }, 'adb bridge connection failed');
        if (!this.bridge) reject(new DriverError('DEVICE_ERROR', `The adb bridge could not start: ${err.message}`));
      });
      server.on('listening', () => {
        const port = ((server as unknown as { server: { address(): AddressInfo } }).server.address()).port;
        this.bridge = { server, port };
        resolve(this.bridge);
      });
      server.listen({ port: 0, host: '127.0.0.1' });
    });
    return this.bridgeStarting;
  }

  private async openService(service: string): Promise<Duplex> {
    try {
      return await this.device.openLocal(service);
    } catch (err) {
      throw new DriverError('DEVICE_ERROR', `The device refused ${service.split(':')[0]}: ${(err as Error).message}`, { cause: err });
    }
  }

  private async openTcp(port: number): Promise<Duplex> {
    try {
      return await this.device.openTcp(port);
    } catch (err) {
      throw new DriverError('DEVICE_ERROR', `Nothing answers on device port ${port}: ${(err as Error).message}`, { cause: err });
    }
  }

  /** The pids of processes that accept a debugger (`track-jdwp`'s first list). */
  private async jdwpPids(): Promise<number[]> {
    const tracker = await this.device.trackJdwp();
    // adbkit's tracker reads the first list as it is made: when the list came in the same read as the
    // service's OKAY (a busy agent), its 'changeSet' was emitted before a listener could be attached. The
    // promise of that read, and the list the tracker keeps, say the same without the race.
    const kept = tracker as unknown as { reader: PromiseLike<unknown>; pids: string[] };
    let timer: NodeJS.Timeout | undefined;
    try {
      const listed = await Promise.race([
        Promise.resolve(kept.reader).then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), JDWP_LIST_TIMEOUT_MS))),
      ]);
      return listed ? kept.pids.map(Number).filter((p) => Number.isInteger(p) && p > 0) : [];
    } finally {
      clearTimeout(timer);
      // One list is all that is needed; the tracking connection is closed at once.
      (tracker as unknown as { command: { connection: { end(): void } } }).command.connection.end();
    }
  }

  /** Each pid's process name (for an app, its package): `/proc/<pid>/cmdline` up to its first NUL. */
  private async processNames(pids: number[]): Promise<Map<number, string>> {
    const names = new Map<number, string>();
    for (const pid of pids.slice(0, MAX_NAMED_PROCESSES)) {
      const cmdline = await shell(this.device, `cat /proc/${pid}/cmdline 2>/dev/null`).catch(() => '');
      const name = cmdline.split('\0')[0]!.trim();
      if (/^[\w.:-]{1,200}$/.test(name)) names.set(pid, name);
    }
    return names;
  }

  /** Abstract sockets named like DevTools' (`@chrome_devtools_remote`, `@webview_devtools_remote_<pid>`). */
  private async devtoolsSockets(): Promise<string[]> {
    const out = await shell(this.device, 'cat /proc/net/unix 2>/dev/null').catch(() => '');
    const names = new Set<string>();
    for (const line of out.split('\n')) {
      const m = DEVTOOLS_SOCKET.exec(line.trim());
      if (m) names.add(m[1]!);
    }
    return [...names];
  }
}

function connectLoopback(port: number): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, noDelay: true });
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', (err) => reject(new DriverError('DEVICE_ERROR', `The adb bridge is not reachable: ${err.message}`, { cause: err })));
  });
}
