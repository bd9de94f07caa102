import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('DF_RESERVATION_GRACE', () => {
  it('defaults to 10 minutes and reads a duration like the other DF_ settings', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).DF_RESERVATION_GRACE).toBe(10 * 60_000);
    expect(loadConfig({ NODE_ENV: 'test', DF_RESERVATION_GRACE: '90s' }).DF_RESERVATION_GRACE).toBe(90_000);
    expect(loadConfig({ NODE_ENV: 'test', DF_RESERVATION_GRACE: '250ms' }).DF_RESERVATION_GRACE).toBe(250);
  });

  it('refuses what is not a duration, naming the variable', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', DF_RESERVATION_GRACE: 'soon' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'test', DF_RESERVATION_GRACE: 'soon' })).toThrow(/DF_RESERVATION_GRACE/);
  });
});
