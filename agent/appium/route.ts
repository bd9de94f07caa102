import type { DataPlaneRoute } from '../data-plane/server.js';
import type { WebDriverRelay } from './relay.js';

/**
 * `/devices/{deviceId}/wd/**` on the data plane (scope `webdriver`): WebDriver for the device, relayed
 * to the host's Appium server. The data plane has already checked the token: this device, the session
 * it is in right now. WebDriver BiDi is not relayed (the hub answers without `webSocketUrl`).
 */
export function webdriverRoute(relay: WebDriverRelay): DataPlaneRoute {
  return {
    prefix: '/wd',
    scope: 'webdriver',
    http: (req, res, rest, claims) => relay.handle(claims.deviceId, req, res, rest || '/'),
  };
}
