import type { Logger } from 'pino';
import type { DeviceInfo } from '#shared/wire/index.js';
import { DriverError } from '../provider.js';
import type { UsbmuxClient } from './usbmux.js';

/** What every capability of one iOS device shares: who it is, the usbmuxd client, the log. */
export class IosContext {
  /** Whether a session has the device (set by `prepare`, cleared by `release`). */
  prepared = false;

  constructor(
    readonly info: DeviceInfo,
    readonly udid: string,
    readonly usbmux: UsbmuxClient,
    readonly logger: Logger,
  ) {}

  /** The iOS major version (17 for 17.4.1; 0 when unknown). */
  get majorVersion(): number {
    return Number.parseInt(this.info.osVersion, 10) || 0;
  }

  requirePrepared(): void {
    if (!this.prepared) throw new DriverError('NOT_PREPARED', 'The device is not prepared');
  }

  /** A started lockdown service; a refusal is the device's (DEVICE_ERROR), naming the service. */
  async service(name: string) {
    try {
      return await this.usbmux.startService(this.udid, name);
    } catch (err) {
      throw new DriverError('DEVICE_ERROR', `The device did not start ${name}: ${(err as Error).message.slice(0, 300)}`, { cause: err });
    }
  }
}
