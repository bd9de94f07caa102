import { verify as verifySignature } from 'node:crypto';
import { KeyRing } from './key-ring.js';
import { ChainWalk, type AuditPublicKey, type ChainEvent } from './verify-chain.js';

/*
 * A device session's evidence (`GET /df/api/sessions/{id}/evidence`): one JSON document whose `manifest`
 * (the session's record, timeline, WebDriver command log, its artifacts by SHA-256, and its events as
 * the history's chain holds them) is signed with the installation's audit signing key, and which carries
 * the public keys, so it is checked with nothing but Node.js: the server builds it with these functions,
 * `dfctl audit verify` checks it with them. Free of the platform's code on purpose (the dfctl bundle
 * takes this file as it is, with verify-chain.ts).
 *
 * The signature is Ed25519 over the UTF-8 bytes of the manifest's canonical encoding: JSON with no
 * whitespace, every object's keys sorted by their UTF-16 code units, strings and numbers as
 * `JSON.stringify` writes them (RFC 8785, JSON Canonicalization Scheme, for the values a manifest holds).
 * So the document may be re-indented or its keys reordered and still verify; any changed value breaks it.
 */

export const EVIDENCE_FORMAT = 'qa-session-evidence/1';

/** One event of the session as its chain holds it: what `verify-chain` checks, with the hash of the event before it in its chain. */
export interface EvidenceEvent extends ChainEvent {
  /** `company:<id>`, or `installation` for an event recorded without a company. */
  chain: string;
  /** The hash of the chain's event `seq - 1` (zeros before the first), hex: the hash is SHA-256(previousHash ‖ encoded). */
  previousHash: string;
}

/** A file the session keeps (screenshot, log, recording's manifest, video): named, sized and hashed, fetched separately. */
export interface EvidenceArtifact {
  id: string;
  /** `screenshot`, `log`, `recording` or `video`. */
  type: string;
  name: string;
  /** The name to save it under (letters, digits, `.`, `_`, `-`; unique within the manifest): what `--files DIR` looks for. */
  fileName: string;
  contentType: string;
  size: number;
  /** SHA-256 of the stored bytes, hex. */
  sha256: string;
  createdAt: string;
  /** The API path that answers its bytes. */
  download: string;
}

/** What the signature covers. */
export interface EvidenceManifest {
  format: typeof EVIDENCE_FORMAT;
  sessionId: string;
  companyId: number;
  workspaceId: number;
  exportedAt: string;
  session: Record<string, unknown>;
  timeline: object[];
  webdriverLog: object[];
  artifacts: EvidenceArtifact[];
  /** Artifacts whose bytes are gone (a video the workspace's retention removed), and why: not hashed. */
  unavailable?: { id: string; type: string; name: string; reason: string }[];
  events: EvidenceEvent[];
}

export interface EvidenceSignature {
  alg: 'EdDSA';
  keyId: string;
  /** Ed25519 over `evidenceMessage(manifest)`, base64url. */
  value: string;
}

/** The document as served. */
export interface SessionEvidence {
  format: typeof EVIDENCE_FORMAT;
  manifest: EvidenceManifest;
  signature: EvidenceSignature;
  /** Every audit signing key ever used (as `GET /api/v1/audit/keys` answers them). */
  keys: { keys: AuditPublicKey[] };
}

/** The canonical encoding of a JSON value (see above). Refuses what JSON cannot hold. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`canonical JSON holds no ${value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
  }
  throw new TypeError(`canonical JSON holds no ${typeof value}`);
}

/** The bytes the signature covers. */
export const evidenceMessage = (manifest: EvidenceManifest): Buffer => Buffer.from(canonicalJson(manifest), 'utf8');

/** A file name `--files DIR` may open: no folder, no `..`. */
export const SAFE_FILE_NAME = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,200}$/;

/** What failed first, in the order checked: the document's shape, an event, the signature, a file. */
export type EvidenceFault = 'format' | 'event' | 'signature' | 'file';

export interface EvidenceResult {
  ok: boolean;
  sessionId: string | null;
  /** Events whose hash was recomputed and matched. */
  events: number;
  /** The key that signed, when the signature verified. */
  keyId: string | null;
  /** Artifacts the manifest lists, and how many files were checked against them. */
  artifacts: number;
  files: number;
  failed?: EvidenceFault;
  reason?: string;
}

/** The SHA-256 (hex) of the file saved under this name, or null when there is none. */
export type FileHasher = (fileName: string) => Promise<string | null>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The reason a document is not a session's evidence, or null when its shape is one. */
function shapeFault(doc: unknown): string | null {
  if (!isObject(doc) || doc.format !== EVIDENCE_FORMAT) return `not a session's evidence: no "format": "${EVIDENCE_FORMAT}"`;
  const { manifest: m, signature: s, keys } = doc;
  if (!isObject(m) || m.format !== EVIDENCE_FORMAT || typeof m.sessionId !== 'string') return 'the manifest is missing or names no session';
  if (!Array.isArray(m.events) || !Array.isArray(m.artifacts)) return 'the manifest lists no events or artifacts';
  if (!isObject(s) || typeof s.keyId !== 'string' || typeof s.value !== 'string') return 'the signature is missing';
  if (!isObject(keys) || !Array.isArray(keys.keys)) return 'the public keys are missing';
  for (const e of m.events as unknown[]) {
    if (!isObject(e) || typeof e.seq !== 'number' || typeof e.chain !== 'string' || typeof e.encoded !== 'string' || typeof e.hash !== 'string' || typeof e.previousHash !== 'string' || typeof e.position !== 'string') {
      return 'an event of the manifest is not {chain, seq, position, hash, previousHash, encoded}';
    }
  }
  const names = new Set<string>();
  for (const a of m.artifacts as unknown[]) {
    if (!isObject(a) || typeof a.fileName !== 'string' || !SAFE_FILE_NAME.test(a.fileName) || typeof a.sha256 !== 'string') return 'an artifact of the manifest has no safe file name or no SHA-256';
    if (names.has(a.fileName)) return `two artifacts of the manifest are named ${a.fileName}`;
    names.add(a.fileName);
  }
  return null;
}

/** Each event's hash recomputed from its encoding, by the chain's own walk started at the event before it. */
function eventFault(events: readonly EvidenceEvent[]): { checked: number; reason: string | null } {
  let checked = 0;
  for (const e of events) {
    const walk = new ChainWalk(e.chain, { seq: e.seq - 1, hash: e.previousHash }, []);
    walk.event(e);
    const result = walk.finish();
    if (!result.ok) return { checked, reason: `event ${e.seq} of ${e.chain} (position ${e.position}): ${result.reason ?? 'does not verify'}` };
    checked++;
  }
  return { checked, reason: null };
}

function signatureHolds(doc: SessionEvidence, pinned: readonly AuditPublicKey[] | undefined): string | null {
  const found = new KeyRing(doc.keys.keys, pinned).lookup(doc.signature.keyId);
  if ('missing' in found) return `the signature's key ${doc.signature.keyId} is not among the evidence's public keys`;
  if ('fault' in found) return `the signature's ${found.fault}`;
  try {
    if (verifySignature(null, evidenceMessage(doc.manifest), found.key, Buffer.from(doc.signature.value, 'base64url'))) return null;
  } catch {
    // A key or signature that does not load verifies nothing.
  }
  return `the signature by ${doc.signature.keyId} does not match the manifest (the manifest or the signature was changed)`;
}

/**
 * Checks a session's evidence offline: its shape; every event's hash recomputed from its encoded text
 * (SHA-256 of the previous hash and the encoding, and the encoding naming its chain and position); the
 * signature over the manifest with the key the document names among its public keys (given `pinned`
 * keys, with the pinned key of that id only: key-ring.ts); and, given `files`, each artifact's SHA-256
 * against the file saved under its `fileName` (a missing file fails). Stops at the first fault and names it.
 */
export async function verifyEvidence(doc: unknown, files?: FileHasher, pinned?: readonly AuditPublicKey[]): Promise<EvidenceResult> {
  const shape = shapeFault(doc);
  const sessionId = isObject(doc) && isObject(doc.manifest) && typeof doc.manifest.sessionId === 'string' ? doc.manifest.sessionId : null;
  const base = { ok: false, sessionId, events: 0, keyId: null, artifacts: 0, files: 0 };
  if (shape) return { ...base, failed: 'format', reason: shape };
  const evidence = doc as SessionEvidence;
  const { manifest } = evidence;
  const events = eventFault(manifest.events);
  const counted = { ...base, events: events.checked, artifacts: manifest.artifacts.length };
  if (events.reason) return { ...counted, failed: 'event', reason: events.reason };
  const signature = signatureHolds(evidence, pinned);
  if (signature) return { ...counted, failed: 'signature', reason: signature };
  const signed = { ...counted, keyId: evidence.signature.keyId };
  if (!files) return { ...signed, ok: true };
  let checked = 0;
  for (const a of manifest.artifacts) {
    const sha256 = await files(a.fileName);
    if (sha256 === null) return { ...signed, files: checked, failed: 'file', reason: `file ${a.fileName} (${a.type} ${a.id}) is missing` };
    if (sha256 !== a.sha256) return { ...signed, files: checked, failed: 'file', reason: `file ${a.fileName} (${a.type} ${a.id}) does not match its SHA-256 in the manifest` };
    checked++;
  }
  return { ...signed, ok: true, files: checked };
}
