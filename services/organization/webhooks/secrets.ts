import { SealedValueError, SecretBox } from '#shared/auth/index.js';

/**
 * Where a webhook's signing secret belongs: a sealed value opens only there. The secret a rotation
 * replaced keeps the context it was sealed with (the rotation moves it to `previous_secret` as it is),
 * so both the secret in use and the replaced one are bound to the webhook and its `secret` field.
 */
export const webhookSecretContext = (webhookId: number): string => `webhook:${webhookId}:secret`;

/** What sealing needs of an endpoint: its id and its stored secrets (sealed, or as recorded before sealing). */
export interface StoredSecrets {
  id: number;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: string | null;
}

/** The secrets to sign one attempt with, opened; or why the endpoint cannot sign. */
export type Signing = { secrets: string[]; unopened: string | null } | { error: string };

/** Why an endpoint's secret cannot sign, as its delivery log and the API say it. */
export const MUST_ROTATE = 'the signing secret was sealed under a key this installation does not have (SECRETS_KEY, SECRETS_PREVIOUS_KEYS): rotate the secret';

const overlapping = (hook: StoredSecrets, at: Date) => hook.previousSecret !== null && hook.previousSecretUntil !== null && at.getTime() < Date.parse(hook.previousSecretUntil);

/**
 * Webhook signing secrets at rest: sealed with the installation's `SecretBox` before they go into an
 * event, opened only to sign an attempt, sealed again under the current key at start-up.
 */
export class WebhookSecrets {
  constructor(private readonly box: SecretBox) {}

  seal(webhookId: number, plain: string): string {
    return this.box.seal(plain, webhookSecretContext(webhookId));
  }

  /** The secret of a stored value (a value recorded before sealing comes back as it is); `SealedValueError` when no key opens it. */
  open(webhookId: number, stored: string): string {
    return this.box.open(stored, webhookSecretContext(webhookId));
  }

  /** Whether the secret in use opens: false when it was sealed under a key this installation no longer has. */
  opens(hook: StoredSecrets): boolean {
    return this.tryOpen(hook.id, hook.secret) !== null;
  }

  /**
   * The secrets an endpoint signs with at `at`, opened: its own and, while their overlap lasts, the one
   * it replaced. The secret in use not opening is an error (nothing is sent unsigned); the replaced one
   * not opening leaves the signature of the one in use alone (`unopened` says so).
   */
  signing(hook: StoredSecrets, at: Date): Signing {
    const current = this.tryOpen(hook.id, hook.secret);
    if (current === null) return { error: MUST_ROTATE };
    if (!overlapping(hook, at)) return { secrets: [current], unopened: null };
    const previous = this.tryOpen(hook.id, hook.previousSecret!);
    return previous === null ? { secrets: [current], unopened: 'the replaced secret, still in its overlap, does not open: only the new one signs' } : { secrets: [current, previous], unopened: null };
  }

  /**
   * The endpoint's secrets sealed under the current key, when that changes anything: the secret in use
   * and, while it still signs, the replaced one, each sealed again when it is clear or under another
   * key; a replaced secret whose overlap is over and that is not under the current key is dropped
   * (null). Null when nothing changes, or when the secret in use does not open (`unopened` is called:
   * it waits for a rotation); a replaced secret in its overlap that does not open is kept as it is.
   */
  resealed(hook: StoredSecrets, at: Date, unopened: (field: 'secret' | 'previousSecret') => void): { secret: string; previousSecret: string | null } | null {
    const fresh = (v: string) => SecretBox.keyIdOf(v) === this.box.currentKeyId;
    let secret = hook.secret;
    if (!fresh(secret)) {
      const plain = this.tryOpen(hook.id, secret);
      if (plain === null) {
        unopened('secret');
        return null;
      }
      secret = this.seal(hook.id, plain);
    }
    let previousSecret = hook.previousSecret;
    if (previousSecret !== null && !fresh(previousSecret)) {
      if (!overlapping(hook, at)) previousSecret = null;
      else {
        const plain = this.tryOpen(hook.id, previousSecret);
        if (plain === null) unopened('previousSecret');
        else previousSecret = this.seal(hook.id, plain);
      }
    }
    return secret === hook.secret && previousSecret === hook.previousSecret ? null : { secret, previousSecret };
  }

  private tryOpen(webhookId: number, stored: string): string | null {
    try {
      return this.open(webhookId, stored);
    } catch (err) {
      if (err instanceof SealedValueError) return null;
      throw err;
    }
  }
}
