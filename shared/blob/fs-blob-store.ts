import type { BlobStore } from './types.js';
import type { UrlSigner } from './url-signer.js';
import { fsLayout } from './fs-layout.js';
import { fsMultipart, fsObjects } from './fs-objects.js';
import { fsGrants, serveSignedGet, serveSignedPut, type SignedBlobHooks, type SignedBlobRequest, type SignedBlobResponse } from './fs-signed.js';

// The file-system store's parts: where it keeps what (fs-layout.ts), objects and multipart uploads
// (fs-objects.ts), and the URLs it signs and serves (fs-signed.ts).
export { SIGNED_BLOB_PATH, type SignedBlobHooks, type SignedBlobRequest, type SignedBlobResponse } from './fs-signed.js';

/** The file-system store also answers the URLs it signs (the platform serves them: no bearer token, the signature is the credential). */
export interface FsBlobStore extends BlobStore {
  readonly kind: 'fs';
  serveSigned(request: SignedBlobRequest, hooks?: SignedBlobHooks): Promise<SignedBlobResponse>;
}

/**
 * Blobs as files under `root` (the embedded default: `DATA_DIR/blobs`). A blob is written to a
 * temporary file, fsynced and renamed into place, so a reader sees the old or the new bytes, never a
 * half-written file; its info lives in a `.meta.json` beside it, with the file's fingerprint (inode,
 * change time in nanoseconds, size) as the store left it, so `verify` knows without reading the bytes
 * whether anyone wrote the file since. Multipart uploads keep their parts
 * under `root/uploads/<uploadId>/` until completed (joined into the object) or aborted (removed).
 * Signed URLs point at the platform's own route (`SIGNED_BLOB_PATH`) and are checked by `serveSigned`.
 */
export function createFsBlobStore(root: string, options: { signer?: UrlSigner; now?: () => Date } = {}): FsBlobStore {
  const files = fsLayout(root, options.now ?? (() => new Date()));
  const objects = fsObjects(files);
  const grants = fsGrants(options.signer, files.now);
  return {
    kind: 'fs',
    ...objects,
    ...grants.presign,
    ...fsMultipart(files, objects.put),
    async serveSigned(request, hooks = {}) {
      const grant = await grants.check(request);
      return grant.method === 'GET' ? serveSignedGet(objects, grant, hooks, request.range) : serveSignedPut(files, request, grant, hooks);
    },
  };
}
