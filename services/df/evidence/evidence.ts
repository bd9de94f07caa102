import { listActivities, listArtifacts, type ActivityView, type SessionRecord } from '#projections/df-sessions/index.js';
import { sessionStream } from '#events/df/sessions.js';
import { sharingStream } from '#events/df/sharing.js';
import type { BlobStore } from '#shared/blob/index.js';
import type { Sql } from '#shared/db/index.js';
import { EVIDENCE_FORMAT, evidenceMessage, type EvidenceArtifact, type EvidenceEvent, type EvidenceManifest, type SessionEvidence } from '#shared/audit/session-evidence.js';
import type { AuditPublicKey } from '#shared/audit/verify-chain.js';
import { videoFileKey } from '../core/blob-keys.js';
import { videoFileName } from '../sessions/index.js';
import { sessionCommandLog } from '../wd/index.js';

/**
 * What a session's evidence asks of the history's chain (the organization module's): the installation's
 * current audit signing key, the published key set, and the chained events of the session's streams.
 * One key system: the checkpoints' (docs/modules/organization.md, "The history's chain").
 */
export interface EvidenceSigner {
  sign(message: Buffer): Promise<{ keyId: string; signature: string }>;
  publicKeys(): Promise<AuditPublicKey[]>;
  streamEvents(streams: readonly string[]): Promise<EvidenceEvent[]>;
}

export interface EvidenceDeps {
  db: Sql;
  blobs: BlobStore;
  now: () => Date;
  signer: EvidenceSigner;
}

const TIMELINE_PAGE = 1_000;

/** Every entry of the session's timeline, oldest first. */
async function wholeTimeline(db: Sql, sessionId: string): Promise<ActivityView[]> {
  const out: ActivityView[] = [];
  for (let page = 0; ; page++) {
    const p = await listActivities(db, sessionId, { page, size: TIMELINE_PAGE });
    out.push(...p.content);
    if (page + 1 >= p.totalPages || p.content.length === 0) return out;
  }
}

/** A name to save a file under: the download's own (letters, digits, `.`, `_`, `-`), made unique by the artifact's id when taken. */
function fileNames(): (name: string, id: string) => string {
  const taken = new Set<string>();
  return (name, id) => {
    const safe = name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+$/, '_').slice(0, 150) || 'artifact';
    const unique = taken.has(safe) ? `${id.replace(/[^A-Za-z0-9_-]/g, '_')}-${safe}` : safe;
    taken.add(unique);
    return unique;
  };
}

/**
 * A session's evidence: its record, timeline, WebDriver command log, its artifacts (and its video) by
 * size and SHA-256 of the stored bytes, and its events (the session's and its sharing's streams) as the
 * history's chain holds them; the manifest signed with the installation's current audit key.
 */
export class SessionEvidenceBuilder {
  constructor(private readonly deps: EvidenceDeps) {}

  async build(session: SessionRecord): Promise<SessionEvidence> {
    const { db, signer } = this.deps;
    const { hostId: _host, ...record } = session;
    const [timeline, webdriverLog, artifacts, events] = await Promise.all([
      wholeTimeline(db, session.id),
      sessionCommandLog(db, session.id),
      this.artifacts(session),
      signer.streamEvents([sessionStream(session.id), sharingStream(session.id)]),
    ]);
    const built: EvidenceManifest = {
      format: EVIDENCE_FORMAT,
      sessionId: session.id,
      companyId: session.companyId,
      workspaceId: session.workspaceId,
      exportedAt: this.deps.now().toISOString(),
      session: record,
      timeline,
      webdriverLog,
      artifacts: artifacts.listed,
      ...(artifacts.unavailable.length > 0 ? { unavailable: artifacts.unavailable } : {}),
      events,
    };
    // Signed as it will be read back: the JSON value, not the objects it was built from.
    const manifest = JSON.parse(JSON.stringify(built)) as EvidenceManifest;
    const { keyId, signature } = await signer.sign(evidenceMessage(manifest));
    return { format: EVIDENCE_FORMAT, manifest, signature: { alg: 'EdDSA', keyId, value: signature }, keys: { keys: await signer.publicKeys() } };
  }

  /** The session's artifacts and video, hashed; those whose bytes are gone are named apart. */
  private async artifacts(session: SessionRecord): Promise<{ listed: EvidenceArtifact[]; unavailable: { id: string; type: string; name: string; reason: string }[] }> {
    const nameOf = fileNames();
    const listed: EvidenceArtifact[] = [];
    const unavailable: { id: string; type: string; name: string; reason: string }[] = [];
    for (const a of await listArtifacts(this.deps.db, session.id)) {
      const digest = await this.deps.blobs.digest(a.blobKey);
      if (!digest) unavailable.push({ id: a.id, type: a.type, name: a.name, reason: 'its bytes are no longer stored' });
      else {
        const download = `/df/api/sessions/${session.id}/artifacts/${a.id}/download`;
        listed.push({ id: a.id, type: a.type, name: a.name, fileName: nameOf(a.name, a.id), contentType: a.contentType, size: digest.size, sha256: digest.sha256, createdAt: a.createdAt, download });
      }
    }
    const video = session.video;
    if (video) {
      const name = videoFileName(session.id);
      const digest = video.expiredAt ? null : await this.deps.blobs.digest(videoFileKey(session.companyId, session.id, video.recordingId));
      if (!digest) unavailable.push({ id: video.recordingId, type: 'video', name, reason: video.expiredAt ? `expired at ${video.expiredAt} (the workspace's video retention)` : 'its bytes are no longer stored' });
      else {
        const download = `/df/api/sessions/${session.id}/video?download=true`;
        listed.push({ id: video.recordingId, type: 'video', name, fileName: nameOf(name, video.recordingId), contentType: 'video/mp4', size: digest.size, sha256: digest.sha256, createdAt: video.storedAt ?? session.endedAt ?? session.startedAt, download });
      }
    }
    return { listed, unavailable };
  }
}
