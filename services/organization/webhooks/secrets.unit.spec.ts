import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { SealedValueError, SecretBox } from '#shared/auth/index.js';
import { MUST_ROTATE, WebhookSecrets } from './secrets.js';
import { newSecret, signedHeaders } from './signature.js';

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const AT = new Date('2026-03-01T09:00:00.000Z');
const LATER = '2026-03-01T10:00:00.000Z';
const EARLIER = '2026-03-01T08:00:00.000Z';

describe('webhook secrets at rest', () => {
  it('seals a secret bound to its webhook: the stored value holds no part of it and opens for that webhook only', () => {
    const secrets = new WebhookSecrets(new SecretBox(keyA));
    const plain = newSecret();
    const sealed = secrets.seal(7, plain);
    expect(SecretBox.isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain(plain.slice('whsec_'.length, 20));
    expect(secrets.open(7, sealed)).toBe(plain);
    expect(() => secrets.open(8, sealed)).toThrow(SealedValueError);
    // Recorded before sealing existed: read as it is.
    expect(secrets.open(7, plain)).toBe(plain);
  });

  it('signs with the opened secret in use and, during the overlap only, the replaced one; a Standard Webhooks receiver verifies with either', () => {
    const secrets = new WebhookSecrets(new SecretBox(keyA));
    const [fresh, old] = [newSecret(), newSecret()];
    const hook = { id: 7, secret: secrets.seal(7, fresh), previousSecret: secrets.seal(7, old), previousSecretUntil: LATER };
    const during = secrets.signing(hook, AT);
    expect(during).toEqual({ secrets: [fresh, old], unopened: null });
    const headers = signedHeaders((during as { secrets: string[] }).secrets, 'msg_1', new Date(), '{"type":"webhook.ping"}');
    for (const s of [fresh, old]) expect(new Webhook(s).verify('{"type":"webhook.ping"}', headers)).toEqual({ type: 'webhook.ping' });
    expect(secrets.signing(hook, new Date(LATER))).toEqual({ secrets: [fresh], unopened: null });
    expect(secrets.signing({ ...hook, previousSecret: null, previousSecretUntil: null }, AT)).toEqual({ secrets: [fresh], unopened: null });
    // A clear secret of an older installation signs as it is.
    expect(secrets.signing({ id: 7, secret: fresh, previousSecret: old, previousSecretUntil: LATER }, AT)).toEqual({ secrets: [fresh, old], unopened: null });
  });

  it('refuses to sign when the secret in use does not open (a lost key), and signs with the new one alone when only the replaced one does not', () => {
    const lost = new WebhookSecrets(new SecretBox(keyA));
    const secrets = new WebhookSecrets(new SecretBox(keyB));
    const [fresh, old] = [newSecret(), newSecret()];
    const underLost = { id: 7, secret: lost.seal(7, fresh), previousSecret: null, previousSecretUntil: null };
    expect(secrets.signing(underLost, AT)).toEqual({ error: MUST_ROTATE });
    expect(secrets.opens(underLost)).toBe(false);
    expect(lost.opens(underLost)).toBe(true);
    // Rotated after the loss: the new secret signs; the replaced one, under the lost key, cannot.
    const rotated = { id: 7, secret: secrets.seal(7, fresh), previousSecret: lost.seal(7, old), previousSecretUntil: LATER };
    expect(secrets.opens(rotated)).toBe(true);
    expect(secrets.signing(rotated, AT)).toEqual({ secrets: [fresh], unopened: expect.stringContaining('does not open') });
  });

  it('seals again under the current key what is clear or under a previous key, drops a replaced secret past its overlap, and changes nothing twice', () => {
    const old = new WebhookSecrets(new SecretBox(keyA));
    const box = new SecretBox(keyB, [keyA]);
    const secrets = new WebhookSecrets(box);
    const [fresh, replaced] = [newSecret(), newSecret()];
    const unopened: string[] = [];
    const note = (f: string) => unopened.push(f);

    const clear = { id: 7, secret: fresh, previousSecret: replaced, previousSecretUntil: LATER };
    const sealed = secrets.resealed(clear, AT, note)!;
    expect(SecretBox.keyIdOf(sealed.secret)).toBe(box.currentKeyId);
    expect(SecretBox.keyIdOf(sealed.previousSecret!)).toBe(box.currentKeyId);
    expect(secrets.signing({ ...clear, ...sealed }, AT)).toEqual({ secrets: [fresh, replaced], unopened: null });
    expect(secrets.resealed({ ...clear, ...sealed }, AT, note)).toBeNull();

    const underA = { id: 7, secret: old.seal(7, fresh), previousSecret: old.seal(7, replaced), previousSecretUntil: EARLIER };
    const again = secrets.resealed(underA, AT, note)!;
    expect(SecretBox.keyIdOf(again.secret)).toBe(box.currentKeyId);
    expect(secrets.open(7, again.secret)).toBe(fresh);
    // Its overlap is over: it signs no more, and is not kept under the old key.
    expect(again.previousSecret).toBeNull();
    expect(unopened).toEqual([]);
  });

  it('leaves a secret no configured key opens as it is, saying so; a replaced one that does not open is kept while the new one is sealed', () => {
    const lost = new WebhookSecrets(new SecretBox(keyA));
    const secrets = new WebhookSecrets(new SecretBox(keyB));
    const unopened: string[] = [];
    const [fresh, replaced] = [newSecret(), newSecret()];
    expect(secrets.resealed({ id: 7, secret: lost.seal(7, fresh), previousSecret: null, previousSecretUntil: null }, AT, (f) => unopened.push(f))).toBeNull();
    expect(unopened).toEqual(['secret']);
    const previousSecret = lost.seal(7, replaced);
    const out = secrets.resealed({ id: 7, secret: fresh, previousSecret, previousSecretUntil: LATER }, AT, (f) => unopened.push(f))!;
    expect(secrets.open(7, out.secret)).toBe(fresh);
    expect(out.previousSecret).toBe(previousSecret);
    expect(unopened).toEqual(['secret', 'previousSecret']);
  });
});
