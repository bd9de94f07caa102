/** The folder of everything the company stores in device testing (session artifacts, recordings, files). */
export const companyBlobPrefix = (companyId: number) => `df/company-${companyId}`;

/** Where everything a session stores lives (artifacts, recordings). */
export const sessionBlobFolder = (companyId: number, sessionId: string) => `${companyBlobPrefix(companyId)}/sessions/${sessionId}`;

/** Where a session's artifact lives in blob storage. */
export const artifactKey = (companyId: number, sessionId: string, artifactId: string, ext: string) =>
  `${sessionBlobFolder(companyId, sessionId)}/artifacts/${artifactId}.${ext}`;

/** Where a recording's video lives: its segments while it runs, one file once it ended. */
export const videoFolder = (companyId: number, sessionId: string, recordingId: string) => `${sessionBlobFolder(companyId, sessionId)}/videos/${recordingId}`;
export const videoFileKey = (companyId: number, sessionId: string, recordingId: string) => `${videoFolder(companyId, sessionId, recordingId)}/video.mp4`;
export const videoSegmentKey = (companyId: number, sessionId: string, recordingId: string, seq: number) =>
  `${videoFolder(companyId, sessionId, recordingId)}/segments/${String(seq).padStart(8, '0')}.m4s`;
/** What the segments stored so far amount to (rewritten with each). */
export const videoProgressKey = (companyId: number, sessionId: string, recordingId: string) => `${videoFolder(companyId, sessionId, recordingId)}/segments/progress.json`;
