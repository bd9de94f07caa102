import { describe, expect, it } from 'vitest';
import { hashToken, randomToken } from './opaque.js';

describe('opaque tokens', () => {
  it('makes 32 random bytes as 43 base64url characters by default', () => {
    expect(randomToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken(48)).toMatch(/^[A-Za-z0-9_-]{64}$/);
  });

  it('never repeats a token across many draws', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => randomToken()));
    expect(tokens.size).toBe(1000);
  });

  it('refuses lengths too short to be a secret', () => {
    expect(() => randomToken(8)).toThrow(RangeError);
    expect(() => randomToken(16.5)).toThrow(RangeError);
  });

  it('hashes with SHA-256 to lower-case hex', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashToken(randomToken())).toMatch(/^[0-9a-f]{64}$/);
  });
});
