export { DownloadKinds, type DownloadKind, type DownloadObject, type DownloadScope } from './kinds.js';
export { contentDisposition, downloadRoutes, MAX_TTL_SECONDS, PUBLIC_DOWNLOAD_PATH } from './routes.js';
export { DOWNLOAD_TOKEN_TYPE, signDownloadToken, verifyDownloadToken, type DownloadGrant } from './token.js';
