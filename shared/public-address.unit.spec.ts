import { describe, expect, it } from 'vitest';
import { appUrlMissing } from '#services/run.js';
import { PublicAddress, usableUrl } from './public-address.js';

const interfaces = {
  lo: [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: true, cidr: '127.0.0.1/8' }],
  eth0: [{ address: '10.1.2.3', netmask: '255.255.255.0', family: 'IPv4', mac: '02:42:0a:01:02:03', internal: false, cidr: '10.1.2.3/24' }],
} as const;

describe('the public address', () => {
  it('is the listen address, with a wildcard host shown as an address people can open', () => {
    expect(usableUrl('127.0.0.1', 18501, {})).toBe('http://127.0.0.1:18501');
    expect(usableUrl('0.0.0.0', 18501, interfaces as never)).toBe('http://10.1.2.3:18501');
    expect(usableUrl('::', 80, interfaces as never)).toBe('http://10.1.2.3:80');
    expect(usableUrl('0.0.0.0', 8080, { lo: interfaces.lo } as never)).toBe('http://127.0.0.1:8080');
    expect(usableUrl('::1', 8080, {})).toBe('http://[::1]:8080');
  });

  it('follows the real port once listening, and APP_URL always wins', () => {
    const derived = new PublicAddress(undefined, '127.0.0.1', 0);
    derived.listeningOn('127.0.0.1', 18501);
    expect(derived.link('/activate?token=a')).toBe('http://127.0.0.1:18501/activate?token=a');
    const set = new PublicAddress('https://qa.example.test/', '127.0.0.1', 18501);
    set.listeningOn('127.0.0.1', 18502);
    expect(set.base).toBe('https://qa.example.test');
    expect(set.link('/reset-password?token=b')).toBe('https://qa.example.test/reset-password?token=b');
  });

  it('warns about a missing APP_URL in production and for a reachable development server, never in tests', () => {
    expect(appUrlMissing({ NODE_ENV: 'production', HOST: '127.0.0.1', APP_URL: undefined })).toBe(true);
    expect(appUrlMissing({ NODE_ENV: 'production', HOST: '0.0.0.0', APP_URL: 'https://qa.example.test' })).toBe(false);
    expect(appUrlMissing({ NODE_ENV: 'development', HOST: '127.0.0.1', APP_URL: undefined })).toBe(false);
    expect(appUrlMissing({ NODE_ENV: 'development', HOST: '0.0.0.0', APP_URL: undefined })).toBe(true);
    expect(appUrlMissing({ NODE_ENV: 'test', HOST: '0.0.0.0', APP_URL: undefined })).toBe(false);
  });
});
