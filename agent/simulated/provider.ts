import type { ControlAction, DeviceInfo, RpcResult, Screen } from '#shared/wire/index.js';
import type { SimulatedDeviceConfig } from '../config.js';
import { stableUuid } from '../config.js';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { DriverError, LogRing, type DebugProtocol, type DebugTarget, type DeviceDriver, type DeviceListener, type DeviceProvider, type DriverFrame, type ScreencastOptions, type Screenshot } from '../provider.js';

// The smallest valid images: a simulated screen has no pixels worth drawing.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);

/**
 * A device that lives in memory and remembers what was done to it: a full driver (after Appium's
 * fake-driver) for load tests, benchmarks and tests whose subject is the farm, not the device.
 */
export class SimulatedDevice implements DeviceDriver {
  private prepared = false;
  private url = 'about:blank';
  private orientation: 'portrait' | 'landscape' = 'portrait';
  private actions: string[] = [];
  private readonly logRing = new LogRing();
  private sink: ((frame: DriverFrame) => Promise<void>) | null = null;

  constructor(
    readonly info: DeviceInfo,
    private readonly prepareMs: number,
    private readonly tcpForwardPorts: readonly number[] = [],
  ) {}

  async debugProtocols(): Promise<DebugProtocol[]> {
    return this.tcpForwardPorts.length > 0 ? ['tcp_forward'] : [];
  }

  async debugTargets(): Promise<DebugTarget[]> {
    return [];
  }

  /** `tcp_forward` to one of the configured loopback ports of the agent's machine. */
  async openDebugStream(protocol: DebugProtocol, target: string | undefined): Promise<Duplex> {
    this.requirePrepared();
    if (protocol !== 'tcp_forward') throw new DriverError('UNSUPPORTED', `A simulated device does not offer ${protocol}`);
    const port = Number(target);
    if (!this.tcpForwardPorts.includes(port)) throw new DriverError('BAD_REQUEST', `Port ${target} is not one of this simulated device's ports`);
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port, noDelay: true });
      socket.once('connect', () => resolve(socket));
      socket.once('error', (err) => reject(new DriverError('DEVICE_ERROR', `Nothing answers on port ${port}: ${err.message}`)));
    });
  }

  async prepare(onProgress: (step: string) => void): Promise<Screen> {
    onProgress('resetting the simulated device');
    if (this.prepareMs > 0) await new Promise((resolve) => setTimeout(resolve, this.prepareMs));
    this.reset();
    this.prepared = true;
    this.logRing.push('info', 'device', 'session prepared');
    return this.screen();
  }

  async release(): Promise<void> {
    this.reset();
    this.logRing.clear();
  }

  async screenshot(format: 'png' | 'jpeg'): Promise<Screenshot> {
    this.requirePrepared();
    return { contentType: format === 'png' ? 'image/png' : 'image/jpeg', data: format === 'png' ? PNG : JPEG, width: 1, height: 1 };
  }

  async control(action: ControlAction): Promise<RpcResult<'control'>> {
    this.requirePrepared();
    this.actions.push(JSON.stringify(action));
    this.logRing.push('info', 'input', `${action.action}`);
    const result: RpcResult<'control'> = {};
    if (action.action === 'openUrl') this.url = result.url = action.url;
    if (action.action === 'home') this.url = result.url = 'about:blank';
    if (action.action === 'rotate') this.orientation = result.orientation = action.orientation;
    await this.emitFrame();
    return result;
  }

  logs(afterSeq: number): RpcResult<'logs'> {
    return this.logRing.after(afterSeq);
  }

  async uiTree(): Promise<RpcResult<'uiTree'>> {
    this.requirePrepared();
    const bounds = { x: 0, y: 0, width: this.info.screen.width, height: this.info.screen.height };
    return {
      url: this.url,
      title: 'Simulated device',
      root: { role: 'document', name: this.orientation, bounds, children: this.actions.map((a) => ({ role: 'generic', name: a, bounds, children: [] })) },
    };
  }

  async startScreencast(_options: ScreencastOptions, onFrame: (frame: DriverFrame) => Promise<void>): Promise<void> {
    this.requirePrepared();
    this.sink = onFrame;
    await this.emitFrame();
  }

  async stopScreencast(): Promise<void> {
    this.sink = null;
  }

  onBroken(): void {}

  async close(): Promise<void> {
    this.reset();
  }

  private async emitFrame(): Promise<void> {
    await this.sink?.({ jpeg: JPEG, width: 1, height: 1, capturedAt: Date.now() });
  }

  private screen(): Screen {
    return this.info.screen;
  }

  private reset(): void {
    this.prepared = false;
    this.url = 'about:blank';
    this.orientation = 'portrait';
    this.actions = [];
    this.sink = null;
  }

  private requirePrepared(): void {
    if (!this.prepared) throw new DriverError('NOT_PREPARED', 'The device is not prepared');
  }
}

/** Simulated devices from the config file. */
export class SimulatedProvider implements DeviceProvider {
  readonly name = 'simulated';

  constructor(private readonly options: { hostId: string; devices: readonly SimulatedDeviceConfig[] }) {}

  async start(listener: DeviceListener): Promise<void> {
    for (const d of this.options.devices) {
      listener.added(
        new SimulatedDevice(
          {
            deviceId: d.id ?? stableUuid(this.options.hostId, 'simulated', d.name),
            name: d.name,
            platform: d.platform,
            osVersion: d.osVersion,
            model: d.model,
            manufacturer: d.manufacturer,
            type: d.type,
            isRealDevice: false,
            provider: 'simulated',
            screen: { width: d.width, height: d.height, scale: 1 },
          },
          d.prepareMs,
          d.tcpForwardPorts,
        ),
      );
    }
  }

  async stop(): Promise<void> {}
}
