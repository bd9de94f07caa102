import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { loadSecretBox, SealedValueError, SecretBox, secretsKeyFilePath } from './sealed.js';

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('sealed secrets', () => {
  it('seals a secret so that the stored value holds neither it nor the key, and opens it where it was sealed', () => {
    const box = new SecretBox(keyA);
    const sealed = box.seal('client-secret-123', 'identity-provider:4:clientSecret');
    expect(sealed).toMatch(/^sealed:v1:[0-9a-f]{12}:/);
    expect(sealed).not.toContain('client-secret-123');
    expect(sealed).not.toContain(keyA.toString('base64'));
    expect(box.seal('client-secret-123', 'identity-provider:4:clientSecret')).not.toBe(sealed);
    expect(box.open(sealed, 'identity-provider:4:clientSecret')).toBe('client-secret-123');
  });

  it('refuses a value moved to another provider or field, changed, or sealed under an unknown key', () => {
    const box = new SecretBox(keyA);
    const sealed = box.seal('s3cret', 'identity-provider:4:clientSecret');
    expect(() => box.open(sealed, 'identity-provider:5:clientSecret')).toThrow(SealedValueError);
    const body = sealed.slice(sealed.lastIndexOf(':') + 1);
    const flipped = `${sealed.slice(0, sealed.lastIndexOf(':') + 1)}${body.slice(0, -2)}${body.endsWith('AA') ? 'AB' : 'AA'}`;
    expect(() => box.open(flipped, 'identity-provider:4:clientSecret')).toThrow(SealedValueError);
    expect(() => new SecretBox(keyB).open(sealed, 'identity-provider:4:clientSecret')).toThrow(/neither SECRETS_KEY nor one of SECRETS_PREVIOUS_KEYS/);
  });

  it('opens with a previous key during a rotation and seals with the current one; a value stored before sealing comes back as it was', () => {
    const sealed = new SecretBox(keyA).seal('s3cret', 'ctx');
    const rotated = new SecretBox(keyB, [keyA]);
    expect(rotated.open(sealed, 'ctx')).toBe('s3cret');
    expect(SecretBox.keyIdOf(rotated.seal('s3cret', 'ctx'))).toBe(rotated.currentKeyId);
    expect(SecretBox.keyIdOf(sealed)).not.toBe(rotated.currentKeyId);
    expect(rotated.open('plain-old-secret', 'ctx')).toBe('plain-old-secret');
    expect(SecretBox.keyIdOf('plain-old-secret')).toBeNull();
  });

  it('takes SECRETS_KEY from configuration, or generates one kept under the data directory (0600) and reuses it', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'qa-sealed-'));
    dirs.push(dataDir);
    const configured = loadSecretBox({ key: keyA.toString('base64'), dataDir });
    expect(configured.currentKeyId).toBe(new SecretBox(keyA).currentKeyId);
    const generated = loadSecretBox({ dataDir });
    expect(statSync(secretsKeyFilePath(dataDir)).mode & 0o777).toBe(0o600);
    expect(loadSecretBox({ dataDir }).currentKeyId).toBe(generated.currentKeyId);
    expect(Buffer.from(readFileSync(secretsKeyFilePath(dataDir), 'utf8').trim(), 'base64')).toHaveLength(32);
  });

  it('refuses at start-up a key that is not base64 of 32 bytes, naming the variable', () => {
    for (const env of [{ SECRETS_KEY: 'too-short' }, { SECRETS_KEY: randomBytes(16).toString('base64') }, { SECRETS_PREVIOUS_KEYS: `${keyA.toString('base64')},nope` }]) {
      let err: unknown;
      try {
        loadConfig(env);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).issues.map((i) => i.variable)).toEqual([Object.keys(env)[0]]);
    }
    expect(loadConfig({ SECRETS_KEY: keyA.toString('base64'), SECRETS_PREVIOUS_KEYS: keyB.toString('base64') }).SECRETS_KEY).toBe(keyA.toString('base64'));
  });
});
