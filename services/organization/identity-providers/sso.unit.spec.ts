import { describe, expect, it } from 'vitest';
import { PublicAddress } from '#shared/public-address.js';
import { consoleLanding } from './sso.js';

describe('the console landing after a sign-in through a provider', () => {
  it('is at APP_URL when the operator set it', () => {
    const address = new PublicAddress('https://qa.example.test/', '127.0.0.1', 8080);
    expect(consoleLanding(address, { code: 'a b' })).toBe('https://qa.example.test/sso?code=a+b');
  });

  it('is relative to the callback’s address without APP_URL', () => {
    const address = new PublicAddress(undefined, '127.0.0.1', 8080);
    expect(consoleLanding(address, { error: 'SSO_FAILED' })).toBe('/sso?error=SSO_FAILED');
  });
});
