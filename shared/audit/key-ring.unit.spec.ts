import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyRing, KeySetError, parseKeySet } from './key-ring.js';
import { checkpointMessage, GENESIS, nextHash, verifyBundle, type AuditPublicKey, type Checkpoint } from './verify-chain.js';

const CHAIN = 'company:9';

function keyPair(kid: string): { jwk: AuditPublicKey; privateKey: KeyObject } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return { jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'EdDSA', use: 'sig' } as AuditPublicKey, privateKey };
}

/** An export bundle's lines: five events of `names`, a checkpoint after the third and the fifth, signed by `signer`. */
function bundle(signer: { jwk: AuditPublicKey; privateKey: KeyObject }, names = ['a', 'b', 'c', 'd', 'e']): string[] {
  const lines = [JSON.stringify({ format: 'qa-audit-bundle/1', chain: CHAIN, companyId: 9, anchor: { seq: 0, hash: GENESIS }, keys: { keys: [signer.jwk] } })];
  let hash = GENESIS;
  names.forEach((name, i) => {
    const seq = i + 1;
    const position = String(100 + seq);
    const encoded = JSON.stringify([CHAIN, position, 'team-1', seq, `id-${seq}`, 'TeamRenamed', 1, { name }, {}]);
    hash = nextHash(hash, encoded);
    lines.push(JSON.stringify({ event: { seq, position, hash, encoded } }));
    if (seq === 3 || seq === names.length) {
      const c: Omit<Checkpoint, 'signature'> = { chain: CHAIN, seq, position, head: hash, at: '2025-01-01T00:00:00.000Z', keyId: signer.jwk.kid };
      lines.push(JSON.stringify({ checkpoint: { ...c, signature: sign(null, checkpointMessage(c), signer.privateKey).toString('base64url') } }));
    }
  });
  return lines;
}

describe('a pinned key set', () => {
  it('reads the shape GET /api/v1/audit/keys answers', () => {
    const { jwk } = keyPair('audit-1');
    expect(parseKeySet(JSON.stringify({ keys: [jwk] }))).toEqual([jwk]);
  });

  it.each([
    ['not JSON', '{"keys": [', 'not JSON'],
    ['no keys array', '[]', 'no "keys" array'],
    ['an empty set', '{"keys": []}', 'holds no keys'],
    ['a key of another kind', JSON.stringify({ keys: [{ kty: 'RSA', n: 'x', e: 'AQAB', kid: 'r' }] }), 'key 1 is not'],
    ['a key without an id', JSON.stringify({ keys: [{ ...keyPair('x').jwk, kid: undefined }] }), 'key 1 is not'],
    ['an x that is no key', JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'AAAA', kid: 'short' }] }), 'key short is not an Ed25519 public key'],
    ['two keys of one id', JSON.stringify({ keys: [keyPair('k').jwk, keyPair('k').jwk] }), 'two keys have the id k'],
  ])('refuses %s', (_, text, reason) => {
    expect(() => parseKeySet(text)).toThrow(KeySetError);
    expect(() => parseKeySet(text)).toThrow(reason);
  });

  it('refuses a key with its private part', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const text = JSON.stringify({ keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'secret' }] });
    expect(() => parseKeySet(text)).toThrow('holds a private part');
  });

  it('gives the carried key unpinned, and only the pinned key pinned', () => {
    const real = keyPair('audit-1').jwk;
    const other = keyPair('audit-1').jwk;
    expect(new KeyRing([real]).lookup('audit-1')).toHaveProperty('key');
    expect(new KeyRing([real]).lookup('audit-2')).toEqual({ missing: true });
    expect(new KeyRing([real], [real]).lookup('audit-1')).toHaveProperty('key');
    expect(new KeyRing([], [real]).lookup('audit-1')).toHaveProperty('key');
    expect(new KeyRing([other], [real]).lookup('audit-1')).toEqual({ fault: 'key audit-1 in the file differs from the pinned key of that id' });
    expect(new KeyRing([real], [real]).lookup('audit-2')).toEqual({ fault: 'key audit-2 is not among the pinned keys' });
  });
});

describe('verifying a bundle against pinned keys', () => {
  it('holds with the real key pinned', async () => {
    const real = keyPair('audit-1');
    expect(await verifyBundle(bundle(real), [real.jwk])).toEqual({ ok: true, events: 5, checkpoints: 2 });
  });

  it('passes a bundle re-signed end to end with a substituted key when not pinned, and names the key when the real one is', async () => {
    const real = keyPair('audit-1');
    const forgedNames = ['a', 'b', 'X', 'd', 'e'];
    const sameId = bundle(keyPair('audit-1'), forgedNames);
    const firstCheckpoint = JSON.parse(sameId.find((l) => l.includes('"checkpoint"'))!).checkpoint as Checkpoint;
    expect(await verifyBundle(sameId)).toMatchObject({ ok: true, checkpoints: 2 });
    expect(await verifyBundle(sameId, [real.jwk])).toEqual({
      ok: false,
      events: 3,
      checkpoints: 0,
      firstBadPosition: firstCheckpoint.position,
      reason: 'checkpoint at 3: key audit-1 in the file differs from the pinned key of that id',
    });
    const otherId = bundle(keyPair('audit-attacker'), forgedNames);
    expect(await verifyBundle(otherId)).toMatchObject({ ok: true });
    expect(await verifyBundle(otherId, [real.jwk])).toMatchObject({ ok: false, reason: 'checkpoint at 3: key audit-attacker is not among the pinned keys' });
  });

  it('keeps its message for a key the bundle does not carry when not pinned', async () => {
    const lines = bundle(keyPair('audit-1'));
    lines[0] = lines[0]!.replace(/"keys":\[.*\]/, '"keys":[]');
    expect(await verifyBundle(lines)).toMatchObject({ ok: false, reason: 'checkpoint at 3 is signed by key audit-1, which the key set does not hold' });
  });
});
