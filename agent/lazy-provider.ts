import type { DeviceListener, DeviceProvider } from './provider.js';

/**
 * A provider whose module is loaded when it starts: a host that offers no iOS device never loads
 * appium-ios-device and Appium's support library (over a hundred files, about a second of a start and
 * tens of megabytes at rest), and one without Android none of its code either.
 */
export class LazyProvider implements DeviceProvider {
  private loading: Promise<DeviceProvider> | null = null;

  constructor(
    readonly name: string,
    private readonly load: () => Promise<DeviceProvider>,
  ) {}

  async start(listener: DeviceListener): Promise<void> {
    this.loading ??= this.load();
    await (await this.loading).start(listener);
  }

  async stop(): Promise<void> {
    if (this.loading) await (await this.loading).stop();
  }
}
