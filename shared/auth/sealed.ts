import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError } from '../config.js';

/** What a sealed value starts with: `sealed:v1:<key id>:<base64url of iv, ciphertext and tag>`. */
const PREFIX = 'sealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealing key as configuration gives it: 32 bytes in base64 (or base64url). */
export function parseSecretsKey(text: string): Buffer | null {
  const key = Buffer.from(text.trim(), 'base64');
  return key.length === 32 ? key : null;
}

/** A key's id, stored beside what it sealed: which key opens it, without telling anything of the key. */
const keyId = (key: Buffer) => createHash('sha256').update('qa-secrets-key:').update(key).digest('hex').slice(0, 12);

/** Path of the generated sealing key under the data directory (used when `SECRETS_KEY` is not set). */
export function secretsKeyFilePath(dataDir: string): string {
  return join(dataDir, 'keys', 'secrets-key');
}

export interface SecretBoxOptions {
  /** `SECRETS_KEY`: base64 of 32 random bytes; absent: generated once and kept under `dataDir`. */
  key?: string | undefined;
  /** `SECRETS_PREVIOUS_KEYS`: older keys (comma-separated) still opening what they sealed during a rotation. */
  previousKeys?: string | undefined;
  dataDir: string;
}

/** Thrown when a sealed value names a key this installation does not have, or was changed. */
export class SealedValueError extends Error {}

/**
 * Seals secrets kept in events and read models (an identity provider's client secret, a directory's
 * bind password) with AES-256-GCM under the installation's key, bound to where they belong (`context`,
 * e.g. `identity-provider:4:clientSecret`), so a sealed value neither reads nor moves elsewhere. The
 * current key seals; it and the previous keys open.
 */
export class SecretBox {
  private readonly keys = new Map<string, Buffer>();
  readonly currentKeyId: string;

  constructor(
    private readonly current: Buffer,
    previous: readonly Buffer[] = [],
  ) {
    this.currentKeyId = keyId(current);
    for (const k of [current, ...previous]) this.keys.set(keyId(k), k);
  }

  static isSealed(value: string): boolean {
    return value.startsWith(PREFIX);
  }

  /** The key id a sealed value names; null for a value stored as it was (before sealing existed). */
  static keyIdOf(value: string): string | null {
    return SecretBox.isSealed(value) ? (value.slice(PREFIX.length).split(':')[0] ?? null) : null;
  }

  seal(plain: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${PREFIX}${this.currentKeyId}:${body.toString('base64url')}`;
  }

  /** The secret of a sealed value; a value stored as it was (older installations) comes back unchanged. */
  open(value: string, context: string): string {
    if (!SecretBox.isSealed(value)) return value;
    const [kid, data] = value.slice(PREFIX.length).split(':');
    const key = kid ? this.keys.get(kid) : undefined;
    if (!key || !data) throw new SealedValueError(`sealed with key ${kid ?? '?'}, which is neither SECRETS_KEY nor one of SECRETS_PREVIOUS_KEYS`);
    const body = Buffer.from(data, 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, body.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch (cause) {
      throw new SealedValueError('a sealed value does not open: changed, or moved from where it was sealed', { cause });
    }
  }
}

/** The configured key (checked), or the one generated and kept under the data directory; with the previous keys. */
export function loadSecretBox(options: SecretBoxOptions): SecretBox {
  const previous = (options.previousKeys ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean)
    .map((k, i) => parseSecretsKey(k) ?? failKey('SECRETS_PREVIOUS_KEYS', `key ${i + 1} is not base64 of 32 bytes`));
  if (options.key !== undefined) {
    return new SecretBox(parseSecretsKey(options.key) ?? failKey('SECRETS_KEY', 'must be base64 of 32 random bytes (openssl rand -base64 32)'), previous);
  }
  const file = secretsKeyFilePath(options.dataDir);
  if (existsSync(file)) {
    return new SecretBox(parseSecretsKey(readFileSync(file, 'utf8')) ?? failKey('SECRETS_KEY', `${file} does not hold base64 of 32 bytes`), previous);
  }
  const key = randomBytes(32);
  mkdirSync(dirname(file), { recursive: true });
  try {
    writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another process of this installation made it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return loadSecretBox(options);
    throw err;
  }
  chmodSync(file, 0o600);
  return new SecretBox(key, previous);
}

function failKey(variable: string, message: string): never {
  throw new ConfigError([{ variable, message }]);
}
