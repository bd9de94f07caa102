export {
  assertBlobKey,
  BlobTooLargeError,
  InvalidBlobKeyError,
  InvalidPartError,
  NoSuchUploadError,
  sameEtag,
  type BlobInfo,
  type BlobStore,
  type SignedRequest,
  type UploadedPart,
} from './types.js';
export { createFsBlobStore, SIGNED_BLOB_PATH, type FsBlobStore, type SignedBlobRequest, type SignedBlobResponse } from './fs-blob-store.js';
export { createS3BlobStore, type S3BlobStoreOptions } from './s3-blob-store.js';
export { signingKeyUrlSigner, type UrlSigner } from './url-signer.js';
