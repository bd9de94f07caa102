export { assertBlobKey, BlobTooLargeError, InvalidBlobKeyError, type BlobInfo, type BlobStore } from './types.js';
export { createFsBlobStore } from './fs-blob-store.js';
