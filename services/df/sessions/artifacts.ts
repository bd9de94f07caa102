import { randomUUID } from 'node:crypto';
import { listArtifacts, type SessionRecord } from '#projections/df-sessions/index.js';
import type { CommandContext } from '#shared/es/index.js';
import { requestDevice, type RpcResult } from '#shared/wire/index.js';
import type { ArtifactType } from '#events/df/sessions.js';
import { artifactKey } from '../core/blob-keys.js';
import type { Caller } from '../http.js';
import type { DeviceChannel } from './channel.js';
import type { SessionDeps } from './deps.js';
import type { SessionActing, SessionWrites } from './writes.js';

const LOGS_TIMEOUT_MS = 5_000;

/** A session's artifacts: screenshots, the device's logs collected at the end, recordings' manifests; stored bytes and their record. */
export class SessionArtifacts {
  constructor(
    private readonly deps: Pick<SessionDeps, 'blobs' | 'bus' | 'db' | 'fleet' | 'logger' | 'now'>,
    private readonly writes: SessionWrites,
    private readonly channel: DeviceChannel,
  ) {}

  /** Captures the screen, keeps it as a screenshot artifact and returns the image. */
  async screenshot(session: SessionRecord, caller: Caller, requested?: 'png' | 'jpeg'): Promise<{ contentType: string; data: Buffer; artifactId: string }> {
    const format = requested ?? (this.deps.fleet ? (await this.deps.fleet.sessionDefaults(session.workspaceId)).screenshotFormat : 'png');
    const shot = await this.channel.device(session, { op: 'screenshot', format });
    const data = Buffer.from(shot.base64, 'base64');
    const artifactId = randomUUID();
    await this.storeArtifact(session, caller, { artifactId, type: 'screenshot', name: `screenshot-${this.deps.now().toISOString()}.${format === 'png' ? 'png' : 'jpg'}`, contentType: shot.contentType, data });
    await this.writes.recordActivity(session, caller, 'screenshot', { artifactId, width: shot.width, height: shot.height });
    return { contentType: shot.contentType, data, artifactId };
  }

  /** Stores bytes as an artifact of the session. */
  async storeArtifact(
    session: Pick<SessionRecord, 'id' | 'companyId'>,
    caller: SessionActing,
    artifact: { artifactId: string; type: ArtifactType; name: string; contentType: string; data: Buffer; size?: number },
  ): Promise<void> {
    const ext = artifact.contentType === 'image/png' ? 'png' : artifact.contentType === 'image/jpeg' ? 'jpg' : artifact.contentType.includes('json') ? 'json' : 'txt';
    const blobKey = artifactKey(session.companyId, session.id, artifact.artifactId, ext);
    const put = () => this.deps.blobs.put(blobKey, artifact.data, { contentType: artifact.contentType });
    // A recording's manifest finishes what was admitted when it started; everything else is a new store.
    const info = this.deps.fleet && artifact.type !== 'recording' ? await this.deps.fleet.withStorage(session.companyId, artifact.data.length, put) : await put();
    await this.writes.runAs(
      { type: 'StoreArtifact', sessionId: session.id, artifactId: artifact.artifactId, artifactType: artifact.type, name: artifact.name, blobKey, contentType: artifact.contentType, size: artifact.size ?? info.size },
      caller,
    );
  }

  /**
   * Starts recording the screen. A recording another replica runs (the session stream says one is

  /** Live device logs of an open session; the stored log artifact of an ended one. */
  async logs(session: SessionRecord, afterSeq: number): Promise<RpcResult<'logs'>> {
    if (session.status === 'active') return this.channel.device(session, { op: 'logs', afterSeq });
    const [artifact] = await listArtifacts(this.deps.db, session.id, ['log']);
    if (!artifact) return { entries: [], lastSeq: 0 };
    const blob = await this.deps.blobs.get(artifact.blobKey);
    if (!blob) return { entries: [], lastSeq: 0 };
    const chunks: Buffer[] = [];
    for await (const chunk of blob.stream) chunks.push(chunk as Buffer);
    const stored = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RpcResult<'logs'>;
    return { entries: stored.entries.filter((e) => e.seq > afterSeq), lastSeq: stored.lastSeq };
  }

  /** Stores the device's logs as an artifact of an ending session; a device that does not answer leaves none. */
  async collectLogs(session: Pick<SessionRecord, 'id' | 'companyId'>, target: { hostId: string; deviceId: string; sessionId: string }, context: CommandContext): Promise<void> {
    try {
      const logs = await requestDevice(this.deps.bus, target, { op: 'logs', afterSeq: 0 }, { timeoutMs: LOGS_TIMEOUT_MS });
      if (logs.entries.length === 0) return;
      await this.storeArtifact(session, { actor: context.actorId ?? 'system', companyId: context.companyId ?? undefined, workspaceId: context.workspaceId ?? undefined } as SessionActing, {
        artifactId: randomUUID(),
        type: 'log',
        name: 'device-log.json',
        contentType: 'application/json',
        data: Buffer.from(JSON.stringify(logs)),
      });
    } catch (err) {
      this.deps.logger.info({ err: (err as Error).message, sessionId: session.id }, 'device logs could not be collected at the end');
    }
  }
}
