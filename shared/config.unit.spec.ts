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

describe('DATABASE_POOL_MAX', () => {
  it('defaults to 20 connections and reads a whole number', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).DATABASE_POOL_MAX).toBe(20);
    expect(loadConfig({ NODE_ENV: 'test', DATABASE_POOL_MAX: '8' }).DATABASE_POOL_MAX).toBe(8);
  });

  it('refuses fewer than two, more than 1,000 or not a whole number, naming the variable', () => {
    for (const bad of ['1', '1001', '5.5', 'many']) expect(() => loadConfig({ NODE_ENV: 'test', DATABASE_POOL_MAX: bad }), bad).toThrow(/DATABASE_POOL_MAX/);
  });
});

describe('DF_QUOTA_*', () => {
  it('reads a whole number, and unset, empty or `unlimited` as no limit', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).DF_QUOTA_CONCURRENT_SESSIONS).toBeNull();
    expect(loadConfig({ NODE_ENV: 'test', DF_QUOTA_CONCURRENT_SESSIONS: '3' }).DF_QUOTA_CONCURRENT_SESSIONS).toBe(3);
    expect(loadConfig({ NODE_ENV: 'test', DF_QUOTA_STORAGE_BYTES: '0' }).DF_QUOTA_STORAGE_BYTES).toBe(0);
    expect(loadConfig({ NODE_ENV: 'test', DF_QUOTA_API_KEYS: 'unlimited' }).DF_QUOTA_API_KEYS).toBeNull();
    expect(loadConfig({ NODE_ENV: 'test', DF_QUOTA_API_KEYS: '' }).DF_QUOTA_API_KEYS).toBeNull();
    expect(loadConfig({ NODE_ENV: 'test' }).DF_QUOTA_PLAN).toBe('default');
  });

  it('refuses a negative or fractional limit, naming the variable', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', DF_QUOTA_SESSION_MINUTES_PER_MONTH: '-1' })).toThrow(/DF_QUOTA_SESSION_MINUTES_PER_MONTH/);
    expect(() => loadConfig({ NODE_ENV: 'test', DF_QUOTA_RESERVATION_HOURS_PER_MONTH: '1.5' })).toThrow(/DF_QUOTA_RESERVATION_HOURS_PER_MONTH/);
    expect(() => loadConfig({ NODE_ENV: 'test', DF_QUOTA_CONCURRENT_SESSIONS: 'many' })).toThrow(ConfigError);
  });
});

describe('PUBLIC_SIGNUP', () => {
  it('is on by default outside production, off by default in production, and as set when set', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).PUBLIC_SIGNUP).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).PUBLIC_SIGNUP).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).PUBLIC_SIGNUP).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_SIGNUP: 'true' }).PUBLIC_SIGNUP).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test', PUBLIC_SIGNUP: 'false' }).PUBLIC_SIGNUP).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'production', PUBLIC_SIGNUP: 'yes' })).toThrow(/PUBLIC_SIGNUP/);
  });
});

describe('webhooks', () => {
  it('reads the retry schedule as pauses, and refuses a bad one naming the variable', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).WEBHOOK_RETRY_SCHEDULE).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 28_800_000, 28_800_000]);
    expect(loadConfig({ NODE_ENV: 'test', WEBHOOK_RETRY_SCHEDULE: '100ms, 2s,1m' }).WEBHOOK_RETRY_SCHEDULE).toEqual([100, 2_000, 60_000]);
    expect(() => loadConfig({ NODE_ENV: 'test', WEBHOOK_RETRY_SCHEDULE: '5s,soon' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadConfig({ NODE_ENV: 'test', WEBHOOK_RETRY_SCHEDULE: '5s,0s' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
  });

  it('allows private endpoint addresses outside production unless told otherwise, and refuses them in production unless allowed', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).WEBHOOK_ALLOW_PRIVATE_URLS).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).WEBHOOK_ALLOW_PRIVATE_URLS).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }).WEBHOOK_ALLOW_PRIVATE_URLS).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test', WEBHOOK_ALLOW_PRIVATE_URLS: '0' }).WEBHOOK_ALLOW_PRIVATE_URLS).toBe(false);
  });
});

describe('DNS servers', () => {
  it('reads resolvers as address and port, the system when unset, and refuses a name or a bad port naming the variable', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).DNS_SERVERS).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'test', DNS_SERVERS: '127.0.0.1:5353, [::1]:53,127.0.0.2' }).DNS_SERVERS).toEqual(['127.0.0.1:5353', '[::1]:53', '127.0.0.2']);
    expect(() => loadConfig({ NODE_ENV: 'test', DNS_SERVERS: 'resolver.example:53' })).toThrow(/DNS_SERVERS/);
    expect(() => loadConfig({ NODE_ENV: 'test', DNS_SERVERS: '127.0.0.1:70000' })).toThrow(/DNS_SERVERS/);
    expect(() => loadConfig({ NODE_ENV: 'test', DNS_SERVERS: '127.0.0.1:53,300.0.0.1' })).toThrow(/DNS_SERVERS/);
  });
});

describe('audit shipping', () => {
  it('is off when unset, and reads a tls:// syslog receiver and an HTTP collector', () => {
    const off = loadConfig({ NODE_ENV: 'test', AUDIT_SYSLOG_URL: '' });
    expect([off.AUDIT_SYSLOG_URL, off.AUDIT_HTTP_URL, off.AUDIT_HTTP_FORMAT]).toEqual([undefined, undefined, 'jsonl']);
    const on = loadConfig({ NODE_ENV: 'test', AUDIT_SYSLOG_URL: 'tls://127.0.0.1:6514', AUDIT_HTTP_URL: 'http://127.0.0.1:8088/services/collector', AUDIT_HTTP_FORMAT: 'splunk-hec' });
    expect([on.AUDIT_SYSLOG_URL, on.AUDIT_HTTP_URL, on.AUDIT_HTTP_FORMAT]).toEqual(['tls://127.0.0.1:6514', 'http://127.0.0.1:8088/services/collector', 'splunk-hec']);
  });

  it('refuses a syslog address that is not tls://host:port, or a bad collector, naming the variable', () => {
    for (const bad of ['tcp://127.0.0.1:514', 'udp://127.0.0.1:514', '127.0.0.1:6514', 'not a url', 'tls://127.0.0.1', 'tls://u:p@127.0.0.1:6514']) {
      expect(() => loadConfig({ NODE_ENV: 'test', AUDIT_SYSLOG_URL: bad }), bad).toThrow(/AUDIT_SYSLOG_URL: a URL tls:\/\/host:port/);
    }
    expect(() => loadConfig({ NODE_ENV: 'test', AUDIT_HTTP_URL: 'ftp://127.0.0.1/x' })).toThrow(/AUDIT_HTTP_URL/);
    expect(() => loadConfig({ NODE_ENV: 'test', AUDIT_HTTP_FORMAT: 'xml' })).toThrow(/AUDIT_HTTP_FORMAT/);
  });
});

describe('AGENT_REBOOT_WAIT', () => {
  it('is unset unless given (the agent config decides), and reads a duration between 1 s and 4 min', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).AGENT_REBOOT_WAIT).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'test', AGENT_REBOOT_WAIT: '90s' }).AGENT_REBOOT_WAIT).toBe(90_000);
    expect(loadConfig({ NODE_ENV: 'test', AGENT_REBOOT_WAIT: '4m' }).AGENT_REBOOT_WAIT).toBe(240_000);
  });

  it('refuses a wait out of its bounds or not a duration, naming the variable', () => {
    for (const bad of ['500ms', '5m', 'long']) expect(() => loadConfig({ NODE_ENV: 'test', AGENT_REBOOT_WAIT: bad })).toThrow(/AGENT_REBOOT_WAIT/);
  });
});
