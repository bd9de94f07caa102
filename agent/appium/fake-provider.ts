import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeviceInfo } from '#shared/wire/index.js';
import { stableUuid } from '../config.js';
import type { DeviceListener, DeviceProvider } from '../provider.js';
import { SimulatedDevice } from '../simulated/provider.js';

/** The app Appium's fake driver loads: a title, a button and a text field. */
export const FAKE_APP_XML = `<app>
  <title>Fake app</title>
  <MockButton id="press" name="Press" value="Press me" />
  <MockInputField id="field" name="Field" />
</app>`;

export interface FakeWebDriverDeviceConfig {
  name: string;
  platform?: DeviceInfo['platform'];
  osVersion?: string;
  model?: string;
}

/**
 * A simulated device that WebDriver drives through Appium's fake driver (`@appium/fake-driver`): the
 * whole `/df/wd` path (hub, data plane, Appium) without a phone or a browser, for tests and the
 * WebDriver benchmark.
 */
export class FakeWebDriverDevice extends SimulatedDevice {
  constructor(
    info: DeviceInfo,
    private readonly appPath: string,
  ) {
    super(info, 0);
  }

  async webdriverCapabilities(): Promise<Record<string, unknown>> {
    return { platformName: 'Fake', 'appium:automationName': 'Fake', 'appium:app': this.appPath, 'appium:deviceName': this.info.name };
  }
}

/** Fake-driver devices with the given names (their ids are stable per host and name). */
export class FakeWebDriverProvider implements DeviceProvider {
  readonly name = 'fake-webdriver';
  private readonly appPath: string;

  constructor(private readonly options: { hostId: string; devices: readonly FakeWebDriverDeviceConfig[] }) {
    this.appPath = join(mkdtempSync(join(tmpdir(), 'df-fake-app-')), 'app.xml');
    writeFileSync(this.appPath, FAKE_APP_XML);
  }

  async start(listener: DeviceListener): Promise<void> {
    for (const d of this.options.devices) {
      const info: DeviceInfo = {
        deviceId: stableUuid(this.options.hostId, 'fake-webdriver', d.name),
        name: d.name,
        platform: d.platform ?? 'android',
        osVersion: d.osVersion ?? '14',
        model: d.model ?? 'Fake phone',
        manufacturer: 'Appium',
        type: 'phone',
        isRealDevice: false,
        provider: 'fake-webdriver',
        screen: { width: 1080, height: 1920, scale: 1 },
      };
      listener.added(new FakeWebDriverDevice(info, this.appPath));
    }
  }

  async stop(): Promise<void> {}
}
