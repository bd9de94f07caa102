import { access, constants } from 'node:fs/promises';
import type { Logger } from 'pino';
import type { BrowserDeviceConfig } from '../config.js';
import { stableUuid } from '../config.js';
import type { DeviceListener, DeviceProvider } from '../provider.js';
import { profileRootOf, reapLeftoverBrowsers } from './chromium.js';
import { BrowserDevice } from './device.js';
import { resolveProfile } from './profiles.js';

/** Browser devices from the config file, present when the Chromium executable is. */
export class BrowserProvider implements DeviceProvider {
  readonly name = 'browser';
  private readonly devices: BrowserDevice[] = [];

  constructor(
    private readonly options: { hostId: string; executable: string; devices: readonly BrowserDeviceConfig[]; logger: Logger },
  ) {}

  async start(listener: DeviceListener): Promise<void> {
    if (this.options.devices.length === 0) return;
    try {
      await access(this.options.executable, constants.X_OK);
    } catch {
      this.options.logger.warn({ executable: this.options.executable }, 'Chromium is not installed; browser devices are not offered');
      return;
    }
    const profileRoot = profileRootOf(this.options.hostId);
    const reaped = await reapLeftoverBrowsers(profileRoot);
    this.options.logger.info({ profileRoot, reaped }, reaped.length > 0 ? 'browsers left by an earlier run of this host were killed' : 'browser profiles');
    for (const config of this.options.devices) {
      const profile = resolveProfile(config);
      const device = new BrowserDevice(
        {
          deviceId: config.id ?? stableUuid(this.options.hostId, 'browser', config.name),
          name: config.name,
          platform: 'web',
          osVersion: 'Chromium',
          model: profile.model,
          manufacturer: profile.manufacturer,
          type: profile.type,
          isRealDevice: false,
          provider: 'browser',
          screen: { width: Math.round(profile.width * profile.scale), height: Math.round(profile.height * profile.scale), scale: profile.scale },
          capabilities: { screen: 'cdp', input: 'cdp' },
        },
        profile,
        this.options.executable,
        profileRoot,
        this.options.logger,
      );
      this.devices.push(device);
      listener.added(device);
    }
  }

  /** Launches a spare browser for every device, and another after each session (see `BrowserDevice.warm`). */
  warm(): void {
    for (const device of this.devices) device.warm();
  }

  async stop(): Promise<void> {
    await Promise.all(this.devices.map((d) => d.close()));
  }
}
