import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, EVIDENCE_FORMAT, evidenceMessage, verifyEvidence, type EvidenceEvent, type EvidenceManifest, type SessionEvidence } from './session-evidence.js';
import { GENESIS, nextHash, type AuditPublicKey } from './verify-chain.js';

const CHAIN = 'company:7';

/** Three events of one chain, the second not the session's (so the session's events are not contiguous). */
function chainEvents(): EvidenceEvent[] {
  const out: EvidenceEvent[] = [];
  let previous = GENESIS;
  for (let seq = 1; seq <= 3; seq++) {
    const position = String(1000 + seq);
    const encoded = JSON.stringify([CHAIN, position, seq === 2 ? 'workspace-1' : 'device-session-s1', seq, `id-${seq}`, 'T', 1, { sessionId: 's1', n: seq }, { companyId: 7 }]);
    const hash = nextHash(previous, encoded);
    out.push({ chain: CHAIN, seq, position, hash, previousHash: previous, encoded });
    previous = hash;
  }
  return out.filter((e) => e.seq !== 2);
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function signedEvidence(): { doc: SessionEvidence; files: Record<string, string> } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'audit-test', alg: 'EdDSA', use: 'sig' } as AuditPublicKey;
  const files = { 'shot.png': 'png bytes', 'device-log.json': '{"entries":[]}' };
  const manifest: EvidenceManifest = {
    format: EVIDENCE_FORMAT,
    sessionId: 's1',
    companyId: 7,
    workspaceId: 3,
    exportedAt: '2025-01-01T00:00:00.000Z',
    session: { id: 's1', name: 'Checkout', status: 'ended', metadata: { b: 1, a: [1, 'x'] } },
    timeline: [{ id: 'a1', kind: 'control', detail: { action: 'tap', x: 1, y: 2 } }],
    webdriverLog: [],
    artifacts: Object.entries(files).map(([fileName, text], i) => ({
      id: `art-${i}`,
      type: fileName.endsWith('.png') ? 'screenshot' : 'log',
      name: fileName,
      fileName,
      contentType: 'application/octet-stream',
      size: text.length,
      sha256: sha(text),
      createdAt: '2025-01-01T00:00:00.000Z',
      download: `/df/api/sessions/s1/artifacts/art-${i}/download`,
    })),
    events: chainEvents(),
  };
  const value = sign(null, evidenceMessage(manifest), privateKey).toString('base64url');
  return { doc: { format: EVIDENCE_FORMAT, manifest, signature: { alg: 'EdDSA', keyId: 'audit-test', value }, keys: { keys: [jwk] } }, files };
}

const hasher = (files: Record<string, string>) => async (name: string) => (name in files ? sha(files[name]!) : null);
const reparsed = (doc: SessionEvidence): SessionEvidence => JSON.parse(JSON.stringify(doc)) as SessionEvidence;

describe('canonical encoding', () => {
  it('sorts keys at every depth and writes no whitespace, whatever order the object was built in', () => {
    expect(canonicalJson({ b: 1, a: { d: [true, null, 'x'], c: 2.5 } })).toBe('{"a":{"c":2.5,"d":[true,null,"x"]},"b":1}');
    expect(canonicalJson({ a: { c: 2.5, d: [true, null, 'x'] }, b: 1 })).toBe(canonicalJson({ b: 1, a: { d: [true, null, 'x'], c: 2.5 } }));
  });

  it('sorts by UTF-16 code units and escapes strings as JSON does; drops undefined members', () => {
    expect(canonicalJson({ é: 1, z: 2, Z: 3, '10': 4, '9': 5, u: undefined })).toBe('{"10":4,"9":5,"Z":3,"z":2,"é":1}');
    expect(canonicalJson(['a"b\n', [undefined]])).toBe('["a\\"b\\n",[null]]');
  });

  it('refuses values JSON cannot hold', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(TypeError);
    expect(() => canonicalJson({ n: Number.POSITIVE_INFINITY })).toThrow(TypeError);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(TypeError);
  });
});

describe('verifying a session evidence offline', () => {
  it('holds as signed, re-indented, and with its files', async () => {
    const { doc, files } = signedEvidence();
    const pretty = JSON.parse(JSON.stringify(doc, null, 2)) as SessionEvidence;
    expect(await verifyEvidence(pretty)).toMatchObject({ ok: true, sessionId: 's1', events: 2, keyId: 'audit-test', artifacts: 2, files: 0 });
    expect(await verifyEvidence(pretty, hasher(files))).toMatchObject({ ok: true, files: 2 });
  });

  it('names the signature when any value of the manifest changes, or the signature does', async () => {
    const renamed = reparsed(signedEvidence().doc);
    (renamed.manifest.session as { name: string }).name = 'Checkoot';
    expect(await verifyEvidence(renamed)).toMatchObject({ ok: false, failed: 'signature', reason: expect.stringContaining('does not match the manifest') });

    const resigned = reparsed(signedEvidence().doc);
    const v = resigned.signature.value;
    resigned.signature.value = `${v[0] === 'A' ? 'B' : 'A'}${v.slice(1)}`;
    expect(await verifyEvidence(resigned)).toMatchObject({ ok: false, failed: 'signature' });

    const foreignKey = reparsed(signedEvidence().doc);
    foreignKey.keys.keys = reparsed(signedEvidence().doc).keys.keys;
    expect(await verifyEvidence(foreignKey)).toMatchObject({ ok: false, failed: 'signature' });
  });

  it("names the event whose encoded text changed, before the signature, with its chain and position", async () => {
    const doc = reparsed(signedEvidence().doc);
    const e = doc.manifest.events[1]!;
    e.encoded = e.encoded.replace('"n":3', '"n":4');
    const result = await verifyEvidence(doc);
    expect(result).toMatchObject({ ok: false, failed: 'event', events: 1 });
    expect(result.reason).toBe(`event 3 of ${CHAIN} (position 1003): event 3 does not match its hash (altered, moved or forged)`);
  });

  it('names an event that claims another chain or position than its encoding', async () => {
    const doc = reparsed(signedEvidence().doc);
    doc.manifest.events[0]!.position = '999';
    expect(await verifyEvidence(doc)).toMatchObject({ ok: false, failed: 'event', reason: expect.stringContaining('not of this chain or position') });
  });

  it('names the file whose bytes differ, and a file missing', async () => {
    const { doc, files } = signedEvidence();
    expect(await verifyEvidence(doc, hasher({ ...files, 'shot.png': 'png bytez' }))).toMatchObject({
      ok: false,
      failed: 'file',
      files: 0,
      reason: 'file shot.png (screenshot art-0) does not match its SHA-256 in the manifest',
    });
    expect(await verifyEvidence(doc, hasher({ 'shot.png': files['shot.png']! }))).toMatchObject({ ok: false, failed: 'file', files: 1, reason: expect.stringContaining('device-log.json (log art-1) is missing') });
  });

  it('refuses what is not an evidence, and file names that would leave the folder', async () => {
    expect(await verifyEvidence({ format: 'qa-audit-bundle/1' })).toMatchObject({ ok: false, failed: 'format' });
    expect(await verifyEvidence(null)).toMatchObject({ ok: false, failed: 'format' });
    const doc = reparsed(signedEvidence().doc);
    doc.manifest.artifacts[0]!.fileName = '../etc-passwd';
    expect(await verifyEvidence(doc)).toMatchObject({ ok: false, failed: 'format', reason: expect.stringContaining('safe file name') });
  });
});

describe('verifying a session evidence against pinned keys', () => {
  /** The evidence with a changed manifest, re-signed with a fresh key carried under `kid` in place of the real one. */
  function resigned(doc: SessionEvidence, kid: string): SessionEvidence {
    const forged = reparsed(doc);
    (forged.manifest.session as { name: string }).name = 'Forged';
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    forged.keys.keys = [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'EdDSA', use: 'sig' } as AuditPublicKey];
    forged.signature = { alg: 'EdDSA', keyId: kid, value: sign(null, evidenceMessage(forged.manifest), privateKey).toString('base64url') };
    return forged;
  }

  it('holds with the real key pinned', async () => {
    const { doc } = signedEvidence();
    expect(await verifyEvidence(doc, undefined, doc.keys.keys)).toMatchObject({ ok: true, keyId: 'audit-test' });
  });

  it('passes a re-signed evidence with its key substituted when not pinned, and names the key when the real one is', async () => {
    const { doc } = signedEvidence();
    const sameId = resigned(doc, 'audit-test');
    expect(await verifyEvidence(sameId)).toMatchObject({ ok: true });
    expect(await verifyEvidence(sameId, undefined, doc.keys.keys)).toMatchObject({
      ok: false,
      failed: 'signature',
      reason: "the signature's key audit-test in the file differs from the pinned key of that id",
    });
    const otherId = resigned(doc, 'audit-attacker');
    expect(await verifyEvidence(otherId)).toMatchObject({ ok: true });
    expect(await verifyEvidence(otherId, undefined, doc.keys.keys)).toMatchObject({
      ok: false,
      failed: 'signature',
      reason: "the signature's key audit-attacker is not among the pinned keys",
    });
  });

  it('checks with the pinned key even when the file carries no key of that id', async () => {
    const { doc } = signedEvidence();
    const bare = reparsed(doc);
    bare.keys.keys = [];
    expect(await verifyEvidence(bare)).toMatchObject({ ok: false, failed: 'signature' });
    expect(await verifyEvidence(bare, undefined, doc.keys.keys)).toMatchObject({ ok: true, keyId: 'audit-test' });
  });
});
