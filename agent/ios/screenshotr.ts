import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { PlistService } from 'appium-ios-device/build/lib/plist-service/index.js';

const TIMEOUT_MS = 20_000;

/**
 * A client of `com.apple.mobile.screenshotr`, which speaks DeviceLink over appium-ios-device's plist
 * service (4-byte length, binary plist): the device offers a version, the client accepts it, the device
 * says it is ready; then each ScreenShotRequest is answered with the screen as PNG.
 */
export class Screenshotr {
  private constructor(private readonly service: PlistService) {}

  static async open(socket: Socket | TLSSocket): Promise<Screenshotr> {
    const service = new PlistService(socket);
    try {
      const offer = (await service.receivePlist(TIMEOUT_MS)) as unknown;
      if (!Array.isArray(offer) || offer[0] !== 'DLMessageVersionExchange') throw new Error(`screenshotr: unexpected greeting ${JSON.stringify(offer).slice(0, 200)}`);
      service.sendPlist(['DLMessageVersionExchange', 'DLVersionsOk', offer[1]]);
      const ready = (await service.receivePlist(TIMEOUT_MS)) as unknown;
      if (!Array.isArray(ready) || ready[0] !== 'DLMessageDeviceReady') throw new Error(`screenshotr: the device is not ready (${JSON.stringify(ready).slice(0, 200)})`);
      return new Screenshotr(service);
    } catch (err) {
      service.close();
      throw err;
    }
  }

  async capture(): Promise<Buffer> {
    this.service.sendPlist(['DLMessageProcessMessage', { MessageType: 'ScreenShotRequest' }]);
    const answer = (await this.service.receivePlist(TIMEOUT_MS)) as unknown;
    const body = Array.isArray(answer) ? (answer[1] as { MessageType?: string; ScreenShotData?: Buffer } | undefined) : undefined;
    if (body?.MessageType !== 'ScreenShotReply' || !Buffer.isBuffer(body.ScreenShotData)) throw new Error('screenshotr answered no screenshot');
    return body.ScreenShotData;
  }

  close(): void {
    try {
      this.service.sendPlist(['DLMessageDisconnect', '___EmptyParameterString___']);
    } catch {
      // already gone
    }
    this.service.close();
  }
}
