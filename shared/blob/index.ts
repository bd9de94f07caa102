export * from './types.js';
export { createFsBlobStore, SIGNED_BLOB_PATH, type FsBlobStore, type SignedBlobHooks, type SignedBlobRequest, type SignedBlobResponse } from './fs-blob-store.js';
export type { S3BlobStoreOptions } from './s3-blob-store.js';

/** The S3 adapter, loaded only when asked for: the AWS SDK takes a noticeable time to load, and most installations never need it. */
export async function openS3BlobStore(options: import('./s3-blob-store.js').S3BlobStoreOptions): Promise<ReturnType<typeof import('./s3-blob-store.js').createS3BlobStore>> {
  const { createS3BlobStore } = await import('./s3-blob-store.js');
  return createS3BlobStore(options);
}
export { signingKeyUrlSigner, type UrlSigner } from './url-signer.js';
export { byteRange } from './range.js';
