import { undeletedSessionsByIds, type SessionRecord } from '#projections/df-sessions/index.js';
import type { BlobStore } from '#shared/blob/index.js';
import type { Sql } from '#shared/db/index.js';
import { AppError } from '#shared/errors.js';
import { videoFileKey } from '../core/blob-keys.js';
import { accessToSession } from '../core/session-access.js';

/** How long a signed link to a session's video lasts. */
const LINK_TTL_MS = 3_600_000;

/** The name a session's video is offered under (its latest; `number`: the session's `number`th video, from 1). */
export const videoFileName = (sessionId: string, number?: number): string => `session-${sessionId}${number === undefined ? '' : `-${number}`}.mp4`;

/**
 * A signed, expiring link to the session's stored video, for a `<video>` element (`download`: offered
 * as a file); the file-system store's signed URLs answer `Range` too, as S3's do.
 */
export async function signedVideoLink(
  blobs: Pick<BlobStore, 'presignGet'>,
  session: Pick<SessionRecord, 'id' | 'companyId'> & { video: { recordingId: string } },
  options: { download?: boolean; fileName?: string } = {},
): Promise<{ url: string; expiresAt: string }> {
  const key = videoFileKey(session.companyId, session.id, session.video.recordingId);
  const signed = await blobs.presignGet(key, { expiresInMs: LINK_TTL_MS, ...(options.download ? { fileName: options.fileName ?? videoFileName(session.id) } : {}) });
  return { url: signed.url, expiresAt: signed.expiresAt.toISOString() };
}

/** A device session's video as a test result lists it: a reference to the stored file, never a copy. */
export interface DeviceSessionVideo {
  deviceSessionId: string;
  name: string;
  contentType: 'video/mp4';
  size: number;
  durationMs: number;
  /** A signed link valid for an hour that answers `Range`. */
  url: string;
  expiresAt: string;
}

/** Who reads the results: a user of a company in a workspace, with the permission keys they hold there. */
export interface ResultReader {
  user: { userId: number; companyId: number };
  workspace: { id: number; companyId: number } | null;
  keys: ReadonlySet<string>;
}

/** Whether the rule lets the reader see the session's content; its refusals (404, 403) are a no. */
async function mayView(db: Sql, reader: ResultReader, session: SessionRecord): Promise<boolean> {
  try {
    await accessToSession(db, reader.user, reader.workspace, reader.keys, session);
    return true;
  } catch (err) {
    if (err instanceof AppError) return false;
    throw err;
  }
}

/**
 * The device sessions test management's results name (`deviceSessionId`: a JUnit report's, a test run's
 * or a posted result's), for test management: which ids are sessions of the company, and the videos
 * a reader may see. An id that is not a session of the company — unknown, removed, another company's —
 * is absent from every answer alike, so nothing tells them apart.
 */
export function deviceSessionsForResults(deps: { db: Sql; blobs: Pick<BlobStore, 'presignGet'> }) {
  const ofCompany = async (companyId: number, ids: readonly string[]): Promise<SessionRecord[]> => {
    const unique = [...new Set(ids)];
    return unique.length === 0 ? [] : (await undeletedSessionsByIds(deps.db, unique)).filter((s) => s.companyId === companyId);
  };
  return {
    /** Of `ids`, those that are sessions of the company. */
    async ofCompany(companyId: number, ids: readonly string[]): Promise<Set<string>> {
      return new Set((await ofCompany(companyId, ids)).map((s) => s.id));
    },
    /**
     * For a reader: which of `ids` are sessions of their company (`known`), and the video of each whose
     * content the session-content rule lets them see (its owner, a session manager, an invitee, a
     * reviewer), stored and not removed by the retention.
     */
    async forReader(reader: ResultReader, ids: readonly string[]): Promise<{ known: Set<string>; videos: Map<string, DeviceSessionVideo> }> {
      const sessions = await ofCompany(reader.user.companyId, ids);
      const videos = new Map<string, DeviceSessionVideo>();
      for (const session of sessions) {
        const video = session.video;
        if (!video || video.expiredAt || !(await mayView(deps.db, reader, session))) continue;
        const link = await signedVideoLink(deps.blobs, { id: session.id, companyId: session.companyId, video });
        videos.set(session.id, { deviceSessionId: session.id, name: videoFileName(session.id), contentType: 'video/mp4', size: video.bytes, durationMs: video.durationMs, ...link });
      }
      return { known: new Set(sessions.map((s) => s.id)), videos };
    },
  };
}

export type DeviceSessionsForResults = ReturnType<typeof deviceSessionsForResults>;
