/** The folder of everything the company stores in device testing (session artifacts, recordings, files). */
export const companyBlobPrefix = (companyId: number) => `df/company-${companyId}`;

/** Where everything a session stores lives (artifacts, recordings). */
export const sessionBlobFolder = (companyId: number, sessionId: string) => `${companyBlobPrefix(companyId)}/sessions/${sessionId}`;

/** Where a session's artifact lives in blob storage. */
export const artifactKey = (companyId: number, sessionId: string, artifactId: string, ext: string) =>
  `${sessionBlobFolder(companyId, sessionId)}/artifacts/${artifactId}.${ext}`;
