import { describe, expect, it } from 'vitest';
import { deviceMatches, matchesAny, parseNewSession } from './capabilities.js';
import { decide, MAX_COMMAND_WAIT_MS, REWRITERS, WEBDRIVER_POLICY } from './policy.js';
import { DeviceQueue } from './queue.js';
import { toW3c, WebDriverError } from './w3c.js';
import { AppError } from '#shared/errors.js';
import { qaMetrics } from '#shared/metrics/index.js';
import { commandOf, metricNameOf } from './command-log.js';

const device = (over: Partial<Parameters<typeof deviceMatches>[0]> = {}) => ({ id: 'd-1', name: 'Pixel 7', alias: null, platform: 'android', type: 'phone', osVersion: '14.1', model: 'Pixel 7', ...over });
const one = (alwaysMatch: Record<string, unknown>) => parseNewSession({ capabilities: { alwaysMatch } }).requirements[0]!;

describe('capabilities', () => {
  it('reads W3C alwaysMatch/firstMatch into one requirement per firstMatch entry, and strips df:* and webSocketUrl for Appium', () => {
    const parsed = parseNewSession({
      capabilities: { alwaysMatch: { platformName: 'Android', 'df:build': 'b', 'df:name': 'n', 'df:queueTimeoutSeconds': 2.5, webSocketUrl: true }, firstMatch: [{ 'appium:deviceName': 'A' }, { 'appium:deviceName': 'B' }] },
    });
    expect(parsed.requirements.map((r) => [r.platform, r.deviceName])).toEqual([['android', 'A'], ['android', 'B']]);
    expect(parsed).toMatchObject({ build: 'b', name: 'n', queueTimeoutMs: 2_500 });
    expect(parsed.forwarded.capabilities.alwaysMatch).toEqual({ platformName: 'Android' });
    expect(parsed.forwarded.capabilities.firstMatch).toEqual([{ 'appium:deviceName': 'A' }, { 'appium:deviceName': 'B' }]);
  });

  it('takes a legacy desiredCapabilities body as alwaysMatch', () => {
    expect(parseNewSession({ desiredCapabilities: { browserName: 'chrome' } }).requirements[0]!.platform).toBe('web');
  });

  it('refuses what W3C calls invalid', () => {
    const invalid = (body: unknown) => {
      try {
        parseNewSession(body);
        return null;
      } catch (err) {
        return (err as WebDriverError).error;
      }
    };
    expect(invalid(null)).toBe('invalid argument');
    expect(invalid({ capabilities: [] })).toBe('invalid argument');
    expect(invalid({ capabilities: { alwaysMatch: { platformName: 'ios' }, firstMatch: [{ platformName: 'ios' }] } })).toBe('invalid argument');
    expect(invalid({ capabilities: { firstMatch: [] } })).toBe('invalid argument');
    expect(invalid({ capabilities: { alwaysMatch: {} } })).toBe('invalid argument');
    expect(invalid({ capabilities: { alwaysMatch: { platformName: 7 } } })).toBe('invalid argument');
    expect(invalid({ capabilities: { alwaysMatch: { platformName: 'ios', 'df:queueTimeoutSeconds': '5' } } })).toBe('invalid argument');
  });

  it('matches platform, browser, device name (name, alias or model), version prefix, udid and df:deviceId', () => {
    expect(deviceMatches(device(), one({ platformName: 'android' }))).toBe(true);
    expect(deviceMatches(device(), one({ platformName: 'ios' }))).toBe(false);
    expect(deviceMatches(device({ platform: 'web', type: 'desktop' }), one({ browserName: 'chrome' }))).toBe(true);
    expect(deviceMatches(device({ platform: 'web', type: 'desktop' }), one({ browserName: 'Chromium' }))).toBe(true);
    expect(deviceMatches(device({ platform: 'web', type: 'desktop' }), one({ browserName: 'firefox' }))).toBe(false);
    expect(deviceMatches(device({ platform: 'web', type: 'desktop' }), one({ platformName: 'linux', browserName: 'chrome' }))).toBe(true);
    expect(deviceMatches(device(), one({ browserName: 'chrome' }))).toBe(false);
    expect(deviceMatches(device(), one({ platformName: 'android', browserName: 'chrome' }))).toBe(true);
    expect(deviceMatches(device({ alias: 'My phone' }), one({ platformName: 'android', 'appium:deviceName': 'my phone' }))).toBe(true);
    expect(deviceMatches(device({ name: 'x', model: 'Pixel 7' }), one({ platformName: 'android', 'appium:deviceName': 'pixel 7' }))).toBe(true);
    expect(deviceMatches(device(), one({ platformName: 'android', 'appium:deviceName': 'Galaxy' }))).toBe(false);
    expect(deviceMatches(device(), one({ platformName: 'android', 'appium:platformVersion': '14' }))).toBe(true);
    expect(deviceMatches(device(), one({ platformName: 'android', 'appium:platformVersion': '14.1' }))).toBe(true);
    expect(deviceMatches(device(), one({ platformName: 'android', 'appium:platformVersion': '1' }))).toBe(false);
    expect(deviceMatches(device(), one({ platformName: 'android', 'appium:udid': 'd-1' }))).toBe(true);
    expect(deviceMatches(device(), one({ 'df:deviceId': 'd-2' }))).toBe(false);
    expect(deviceMatches(device(), one({ platformName: 'Fake' }))).toBe(false);
    expect(matchesAny(device(), parseNewSession({ capabilities: { firstMatch: [{ platformName: 'ios' }, { platformName: 'android' }] } }))).toBe(true);
  });

  it('gives a browser asked for without a device name or mobile emulation a desktop browser device only', () => {
    const desktop = device({ id: 'desk', name: 'Desktop Chromium', platform: 'web', type: 'desktop', model: 'Chromium' });
    const phone = device({ id: 'pix', name: 'Pixel 7 (emulated)', platform: 'web', type: 'phone', model: 'Pixel 7 (emulated)' });
    const tablet = device({ id: 'ipad', name: 'iPad mini (emulated)', platform: 'web', type: 'tablet', model: 'iPad mini (emulated)' });
    for (const caps of [{ browserName: 'chrome' }, { browserName: 'chromium', platformName: 'linux' }, { platformName: 'desktop' }, { browserName: 'chrome', 'goog:chromeOptions': { args: ['--headless'] } }]) {
      expect([caps, [desktop, phone, tablet].map((d) => deviceMatches(d, one(caps)))]).toEqual([caps, [true, false, false]]);
    }
    // Phones and tablets by name (appium:deviceName, appium:udid, df:deviceId) or by mobile emulation.
    expect(deviceMatches(phone, one({ browserName: 'chrome', 'appium:deviceName': 'Pixel 7 (emulated)' }))).toBe(true);
    expect(deviceMatches(desktop, one({ browserName: 'chrome', 'appium:deviceName': 'Pixel 7 (emulated)' }))).toBe(false);
    expect(deviceMatches(tablet, one({ browserName: 'chrome', 'appium:udid': 'ipad' }))).toBe(true);
    expect(deviceMatches(phone, one({ 'df:deviceId': 'pix' }))).toBe(true);
    const emulation = one({ browserName: 'chrome', 'goog:chromeOptions': { mobileEmulation: { deviceName: 'Pixel 7' } } });
    expect([desktop, phone, tablet].map((d) => deviceMatches(d, emulation))).toEqual([true, true, true]);
  });

  it('reads df:record: true or false for one session, absent for the workspace default, anything else refused', () => {
    expect(parseNewSession({ capabilities: { alwaysMatch: { browserName: 'chrome' } } }).record).toBeNull();
    expect(parseNewSession({ capabilities: { alwaysMatch: { browserName: 'chrome', 'df:record': false } } }).record).toBe(false);
    expect(parseNewSession({ capabilities: { alwaysMatch: { browserName: 'chrome', 'df:record': true } } }).record).toBe(true);
    expect(() => parseNewSession({ capabilities: { alwaysMatch: { browserName: 'chrome', 'df:record': 'no' } } })).toThrow('df:record must be true or false');
  });

  it('reads df:recordVideo as df:record: a boolean, which must agree with df:record when both are given', () => {
    expect(parseNewSession({ capabilities: { alwaysMatch: { browserName: 'chrome', 'df:recordVideo': true } } }).record).toBe(true);
    expect(parseNewSession({ capabilities: { alwaysMatch: { browserName: 'chrome', 'df:recordVideo': false, 'df:record': false } } }).record).toBe(false);
    expect(() => parseNewSession({ capabilities: { alwaysMatch: { browserName: 'chrome', 'df:recordVideo': 1 } } })).toThrow('df:recordVideo must be true or false');
    expect(() => parseNewSession({ capabilities: { alwaysMatch: { browserName: 'chrome', 'df:recordVideo': true, 'df:record': false } } })).toThrow('df:record and df:recordVideo disagree');
  });
});

describe('policy', () => {
  it('is data: the first matching rule decides, and everything else is allowed', () => {
    expect(decide('POST', '/appium/device/push_file').then).toMatchObject({ action: 'require', permission: 'df:app:install' });
    expect(decide('POST', '/se/file').then).toMatchObject({ action: 'require', permission: 'df:app:install' });
    expect(decide('POST', '/goog/cdp/execute').then).toMatchObject({ action: 'require', permission: 'df:debug:use' });
    expect(decide('POST', '/appium/execute_driver').then.action).toBe('block');
    expect(decide('GET', '/appium/device/shell').then.action).toBe('block');
    expect(decide('POST', '/execute/sync').then).toMatchObject({ action: 'rewrite', rewriter: 'executeScript' });
    expect(decide('POST', '/timeouts').then).toMatchObject({ action: 'rewrite', rewriter: 'timeouts' });
    expect(decide('GET', '/timeouts').then.action).toBe('allow');
    expect(decide('POST', '/url').then.action).toBe('allow');
    expect(decide('POST', '/appium/device/push_file_x').then.action).toBe('allow');
    expect(WEBDRIVER_POLICY.at(-1)).toMatchObject({ method: '*', path: '.*', then: { action: 'allow' } });
  });

  it('rewrites: caps waits, refuses host commands in execute', () => {
    expect(REWRITERS.timeouts({ implicit: 10 ** 9, pageLoad: 1_000 })).toEqual({ implicit: MAX_COMMAND_WAIT_MS, pageLoad: 1_000 });
    expect(REWRITERS.executeScript({ script: ' Mobile: Shell', args: [] })).toHaveProperty('refuse');
    expect(REWRITERS.executeScript({ script: 'mobile: pullFile' })).toHaveProperty('refuse');
    expect(REWRITERS.executeScript({ script: 'return document.title', args: [] })).toEqual({ script: 'return document.title', args: [] });
  });
});

describe('W3C errors', () => {
  it('keeps the W3C code of hub errors and maps platform errors by status, with the platform code as data', () => {
    expect(toW3c(new WebDriverError('session not created', 'none'))).toMatchObject({ status: 500, body: { value: { error: 'session not created', message: 'none', stacktrace: '' } } });
    expect(toW3c(new AppError('UNAUTHORIZED', 'who?'))).toMatchObject({ status: 401, body: { value: { error: 'unknown error', data: { code: 'UNAUTHORIZED' } } } });
    expect(toW3c(new AppError('NOT_FOUND', 'gone'))).toMatchObject({ status: 404, body: { value: { error: 'invalid session id' } } });
    expect(toW3c(new AppError('VALIDATION_FAILED', 'bad'))).toMatchObject({ status: 400, body: { value: { error: 'invalid argument' } } });
    expect(toW3c(new Error('boom'))).toMatchObject({ status: 500, internal: true, body: { value: { error: 'unknown error' } } });
  });
});

describe('queue', () => {
  it('serves a company first come first served and lets a request for another kind pass', async () => {
    const queue = new DeviceQueue<string>();
    const free = new Set<string>();
    const take = (kind: string) => async () => {
      const found = [...free].find((d) => d.startsWith(kind));
      if (!found) return null;
      free.delete(found);
      return found;
    };
    const order: string[] = [];
    const opts = { timeoutMs: 10_000, onTimeout: () => new Error('timeout') };
    const first = queue.wait(1, take('android'), opts).then((d) => (order.push(`first:${d}`), d));
    const second = queue.wait(1, take('android'), opts).then((d) => (order.push(`second:${d}`), d));
    free.add('ios-1');
    const ios = await queue.wait(1, take('ios'), opts);
    expect(ios).toBe('ios-1');
    expect(queue.size(1)).toBe(2);
    free.add('android-1');
    queue.notify(1);
    expect(await first).toBe('android-1');
    free.add('android-2');
    queue.notify(1);
    expect(await second).toBe('android-2');
    expect(order).toEqual(['first:android-1', 'second:android-2']);
    expect(queue.size()).toBe(0);
    await queue.stop();
  });

  it('times out, leaves on abort, and rejects everything on stop', async () => {
    const queue = new DeviceQueue<string>();
    const never = async () => null;
    await expect(queue.wait(1, never, { timeoutMs: 50, onTimeout: () => new Error('too long') })).rejects.toThrow('too long');
    const abort = new AbortController();
    const left = queue.wait(2, never, { timeoutMs: 10_000, onTimeout: () => new Error('x'), signal: abort.signal });
    expect(queue.size(2)).toBe(1);
    abort.abort();
    await expect(left).rejects.toThrow(/went away/);
    expect(queue.size(2)).toBe(0);
    const pending = queue.wait(3, never, { timeoutMs: 10_000, onTimeout: () => new Error('x') });
    await queue.stop();
    await expect(pending).rejects.toThrow(/shutting down/);
    await expect(queue.wait(3, never, { timeoutMs: 10, onTimeout: () => new Error('stopped') })).rejects.toThrow('stopped');
  });

  it('hands back a device taken for a request that left meanwhile', async () => {
    const queue = new DeviceQueue<string>();
    const handedBack: string[] = [];
    queue.onAbandoned = (d) => handedBack.push(d);
    let release!: () => void;
    const slow = () => new Promise<string>((resolve) => (release = () => resolve('device-1')));
    const abort = new AbortController();
    const waiting = queue.wait(1, slow, { timeoutMs: 10_000, onTimeout: () => new Error('x'), signal: abort.signal });
    abort.abort();
    await expect(waiting).rejects.toThrow(/went away/);
    release();
    await queue.stop();
    expect(handedBack).toEqual(['device-1']);
  });
});

describe('queue metrics', () => {
  const waits = async (outcome: string) => {
    const { values } = await qaMetrics.webdriverQueueWait.get();
    return values.find((v) => v.metricName === 'qa_webdriver_queue_wait_seconds_count' && v.labels.outcome === outcome)?.value ?? 0;
  };
  const waiting = async () => (await qaMetrics.webdriverQueueWaiting.get()).values[0]?.value ?? 0;

  it('times each wait by how it ended (acquired, timeout, abandoned) and counts the requests waiting now', async () => {
    const queue = new DeviceQueue<string>();
    const before = { acquired: await waits('acquired'), timeout: await waits('timeout'), abandoned: await waits('abandoned'), waiting: await waiting() };
    let free = false;
    const acquired = queue.wait(1, async () => (free ? 'device' : null), { timeoutMs: 10_000, onTimeout: () => new Error('timed out') });
    const timedOut = queue.wait(2, async () => null, { timeoutMs: 20, onTimeout: () => new Error('no device') });
    const leaving = new AbortController();
    const abandoned = queue.wait(3, async () => null, { timeoutMs: 10_000, onTimeout: () => new Error('timed out'), signal: leaving.signal });
    expect(await waiting()).toBe(before.waiting + 3);
    await expect(timedOut).rejects.toThrow('no device');
    leaving.abort();
    await expect(abandoned).rejects.toThrow('The client went away');
    free = true;
    queue.notify(1);
    expect(await acquired).toBe('device');
    expect({ acquired: await waits('acquired'), timeout: await waits('timeout'), abandoned: await waits('abandoned'), waiting: await waiting() }).toEqual({
      acquired: before.acquired + 1,
      timeout: before.timeout + 1,
      abandoned: before.abandoned + 1,
      waiting: before.waiting,
    });
    await queue.stop();
  });

  it('labels a command the hub names by its W3C name, and any other as other (never its path)', () => {
    expect(metricNameOf(commandOf('POST', '/element/abc-123/click').command)).toBe('elementClick');
    expect(metricNameOf(commandOf('POST', '/appium/secret/user-text').command)).toBe('other');
  });
});
