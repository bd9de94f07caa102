import { describe, expect, it } from 'vitest';
import { uiautomator2Capabilities } from './adb.js';

describe('uiautomator2Capabilities', () => {
  it("names the agent's adb server: its port always, its host only when it is not this machine", () => {
    const base = { platformName: 'Android', 'appium:automationName': 'UiAutomator2', 'appium:udid': '127.0.0.1:5555' };
    expect(uiautomator2Capabilities('127.0.0.1:5555', { host: '127.0.0.1', port: 5038 })).toEqual({ ...base, 'appium:adbPort': 5038 });
    expect(uiautomator2Capabilities('127.0.0.1:5555', { host: 'localhost', port: 5037 })).toEqual({ ...base, 'appium:adbPort': 5037 });
    expect(uiautomator2Capabilities('127.0.0.1:5555', { host: 'adb-server.invalid', port: 5037 })).toEqual({ ...base, 'appium:adbPort': 5037, 'appium:remoteAdbHost': 'adb-server.invalid' });
    expect(uiautomator2Capabilities('127.0.0.1:5555', null)).toEqual(base);
  });
});
