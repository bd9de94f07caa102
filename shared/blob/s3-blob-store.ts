import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { assertBlobKey, BlobTooLargeError, InvalidPartError, NoSuchUploadError, type BlobInfo, type BlobStore, type SignedRequest } from './types.js';
import { digestOf, meteredStream, safeFileName } from './bytes.js';

export interface S3BlobStoreOptions {
  /** Omitted for AWS itself; any S3-compatible endpoint (MinIO, Ceph, s3rver) otherwise. */
  endpoint?: string | undefined;
  region: string;
  bucket: string;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key` (most self-hosted servers). */
  forcePathStyle?: boolean | undefined;
  /** Prepended to every key, so several installations can share a bucket. */
  prefix?: string | undefined;
}

const notFound = (err: unknown) => err instanceof S3ServiceException && (err.$metadata.httpStatusCode === 404 || err.name === 'NoSuchKey' || err.name === 'NotFound');

/** The bucket as the builders below address it: the client, the bucket's name, and keys with the installation's prefix. */
function s3Bucket(options: S3BlobStoreOptions) {
  const client = new S3Client({
    region: options.region,
    forcePathStyle: options.forcePathStyle ?? false,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.accessKeyId && options.secretAccessKey ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } } : {}),
    // Presigned URLs must not carry a checksum of an empty body (the SDK's default since 3.729): the client's bytes are not known here.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = options.bucket;
  const prefix = options.prefix ? `${options.prefix.replace(/\/$/, '')}/` : '';
  const k = (key: string) => {
    assertBlobKey(key);
    return `${prefix}${key}`;
  };
  /** Gives an object the hash of its bytes (a copy onto itself: metadata only; S3 copies objects up to 5 GiB this way). */
  const recordSha256 = (key: string, contentType: string, sha256: string) =>
    client.send(
      new CopyObjectCommand({ Bucket, Key: k(key), CopySource: `${Bucket}/${encodeURIComponent(k(key)).replace(/%2F/g, '/')}`, MetadataDirective: 'REPLACE', ContentType: contentType, Metadata: { sha256 } }),
    );
  const head = async (key: string): Promise<BlobInfo | null> => {
    try {
      const r = await client.send(new HeadObjectCommand({ Bucket, Key: k(key) }));
      return { key, size: Number(r.ContentLength ?? 0), contentType: r.ContentType ?? 'application/octet-stream', sha256: r.Metadata?.sha256 ?? '', createdAt: r.LastModified ?? new Date(0) };
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  };
  const listKeys = async (keyPrefix: string): Promise<{ Key: string; Size: number }[]> => {
    const out: { Key: string; Size: number }[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: keyPrefix, ...(token ? { ContinuationToken: token } : {}) }));
      for (const o of page.Contents ?? []) if (o.Key) out.push({ Key: o.Key, Size: Number(o.Size ?? 0) });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out;
  };
  return { client, Bucket, prefix, k, recordSha256, head, listKeys };
}

type S3Bucket = ReturnType<typeof s3Bucket>;

/** Stores a stream: uploaded as it comes, hashed on the way, then given its hash (known only at its end). */
async function putStream(bucket: S3Bucket, key: string, data: Readable, contentType: string, max: number): Promise<BlobInfo> {
  const { client, Bucket, k } = bucket;
  const meter = meteredStream(max);
  const body = data.pipe(meter.stream);
  data.once('error', (err) => meter.stream.destroy(err));
  const upload = new Upload({ client, params: { Bucket, Key: k(key), Body: body, ContentType: contentType } });
  try {
    await upload.done();
  } catch (err) {
    if (err instanceof BlobTooLargeError) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: k(key) })).catch(() => undefined);
    }
    throw err;
  }
  const sha256 = meter.sha256();
  await bucket.recordSha256(key, contentType, sha256);
  return { key, size: meter.size, contentType, sha256, createdAt: new Date() };
}

/** Objects: their bytes, info, integrity and the space they use. */
function s3Objects(bucket: S3Bucket): Pick<BlobStore, 'put' | 'get' | 'stat' | 'digest' | 'promote' | 'verify' | 'delete' | 'deleteFolder' | 'usage'> {
  const { client, Bucket, k, head } = bucket;
  const objects: ReturnType<typeof s3Objects> = {
    async put(key, data, putOptions) {
      const max = putOptions.maxBytes ?? Number.POSITIVE_INFINITY;
      if (!Buffer.isBuffer(data)) return putStream(bucket, key, data, putOptions.contentType, max);
      if (data.length > max) throw new BlobTooLargeError(max);
      const sha256 = createHash('sha256').update(data).digest('hex');
      await client.send(new PutObjectCommand({ Bucket, Key: k(key), Body: data, ContentType: putOptions.contentType, Metadata: { sha256 } }));
      return { key, size: data.length, contentType: putOptions.contentType, sha256, createdAt: new Date() };
    },
    async get(key, options) {
      try {
        const range = options?.range ? { Range: `bytes=${options.range.start}-${options.range.end}` } : {};
        const r = await client.send(new GetObjectCommand({ Bucket, Key: k(key), ...range }));
        // A ranged answer names the whole size after the slash of its Content-Range.
        const whole = r.ContentRange ? Number(r.ContentRange.split('/')[1]) : Number.NaN;
        const info: BlobInfo = { key, size: Number.isFinite(whole) ? whole : Number(r.ContentLength ?? 0), contentType: r.ContentType ?? 'application/octet-stream', sha256: r.Metadata?.sha256 ?? '', createdAt: r.LastModified ?? new Date(0) };
        return { info, stream: r.Body as Readable };
      } catch (err) {
        if (notFound(err)) return null;
        throw err;
      }
    },
    stat: head,
    async digest(key) {
      const info = await head(key);
      if (!info) return null;
      if (info.sha256) return { size: info.size, sha256: info.sha256 };
      const blob = await objects.get(key);
      if (!blob) return null;
      return digestOf(blob.stream);
    },
    async promote(from, to) {
      // S3 cannot revoke a presigned URL: the bytes are copied through this process to a key no URL
      // names, hashed on the way (the hash is of what was written, whatever `from` holds meanwhile).
      const source = await objects.get(from);
      if (!source) return null;
      const info = await objects.put(to, source.stream, { contentType: source.info.contentType });
      await client.send(new DeleteObjectCommand({ Bucket, Key: k(from) }));
      return { size: info.size, sha256: info.sha256 };
    },
    async verify(key, expected) {
      const info = await head(key);
      if (!info) return 'missing';
      if (info.size !== expected.size) return 'altered';
      // The platform's writes keep their SHA-256 with the object; a write by anyone else replaces the
      // object and its metadata with it.
      if (info.sha256) return info.sha256 === expected.sha256 ? 'intact' : 'altered';
      // An object from before digests were kept with every file: its bytes decide, once.
      const digest = await objects.digest(key);
      if (!digest) return 'missing';
      if (digest.sha256 !== expected.sha256 || digest.size !== expected.size) return 'altered';
      await bucket.recordSha256(key, info.contentType, digest.sha256);
      return 'intact';
    },
    async delete(key) {
      const existed = (await head(key)) !== null;
      await client.send(new DeleteObjectCommand({ Bucket, Key: k(key) }));
      return existed;
    },
    async deleteFolder(folder) {
      const keys = await bucket.listKeys(`${k(folder.replace(/\/$/, ''))}/`);
      for (let i = 0; i < keys.length; i += 1000) {
        await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys.slice(i, i + 1000).map((o) => ({ Key: o.Key })), Quiet: true } }));
      }
    },
    async usage(keyPrefix) {
      const base = keyPrefix === '' ? bucket.prefix : `${k(keyPrefix.replace(/\/$/, ''))}`;
      const keys = await bucket.listKeys(base);
      return keys.filter((o) => keyPrefix === '' || o.Key === base || o.Key.startsWith(`${base}/`)).reduce((n, o) => n + o.Size, 0);
    },
  };
  return objects;
}

/** Presigned URLs and multipart uploads: clients' bytes go straight to the bucket. */
function s3Uploads(bucket: S3Bucket): Pick<BlobStore, 'presignPut' | 'presignGet' | 'startMultipart' | 'presignPart' | 'completeMultipart' | 'abortMultipart' | 'openMultipartUploads'> {
  const { client, Bucket, k, prefix } = bucket;
  const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
  const signed = async (presign: (expiresIn: number) => Promise<string>, method: 'GET' | 'PUT', expiresInMs: number, headers: Record<string, string>): Promise<SignedRequest> => {
    const issued = Date.now();
    const url = await presign(seconds(expiresInMs));
    return { url, method, headers, expiresAt: new Date(issued + seconds(expiresInMs) * 1000) };
  };
  return {
    presignPut(key, o) {
      return signed((expiresIn) => getSignedUrl(client, new PutObjectCommand({ Bucket, Key: k(key), ContentType: o.contentType, ContentLength: o.size }), { expiresIn }), 'PUT', o.expiresInMs, { 'content-type': o.contentType });
    },
    presignGet(key, o) {
      const disposition = o.fileName ? `attachment; filename="${safeFileName(o.fileName)}"` : undefined;
      return signed((expiresIn) => getSignedUrl(client, new GetObjectCommand({ Bucket, Key: k(key), ...(disposition ? { ResponseContentDisposition: disposition } : {}) }), { expiresIn }), 'GET', o.expiresInMs, {});
    },
    async startMultipart(key, o) {
      const r = await client.send(new CreateMultipartUploadCommand({ Bucket, Key: k(key), ContentType: o.contentType }));
      if (!r.UploadId) throw new Error('The bucket answered no upload id');
      return r.UploadId;
    },
    presignPart(key, uploadId, partNumber, o) {
      return signed((expiresIn) => getSignedUrl(client, new UploadPartCommand({ Bucket, Key: k(key), UploadId: uploadId, PartNumber: partNumber, ContentLength: o.size }), { expiresIn }), 'PUT', o.expiresInMs, {});
    },
    async completeMultipart(key, uploadId, parts) {
      if (parts.length === 0) throw new InvalidPartError(0, 'At least one part is needed');
      try {
        await client.send(
          new CompleteMultipartUploadCommand({
            Bucket,
            Key: k(key),
            UploadId: uploadId,
            MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag.startsWith('"') ? p.etag : `"${p.etag}"` })) },
          }),
        );
      } catch (err) {
        if (err instanceof S3ServiceException && (err.name === 'InvalidPart' || err.name === 'InvalidPartOrder' || err.name === 'EntityTooSmall')) {
          throw new InvalidPartError(parts[0]!.partNumber, err.message);
        }
        if (err instanceof S3ServiceException && err.name === 'NoSuchUpload') throw new NoSuchUploadError(uploadId);
        throw err;
      }
    },
    async abortMultipart(key, uploadId) {
      try {
        await client.send(new AbortMultipartUploadCommand({ Bucket, Key: k(key), UploadId: uploadId }));
      } catch (err) {
        if (!(err instanceof S3ServiceException && (err.name === 'NoSuchUpload' || err.$metadata.httpStatusCode === 404))) throw err;
      }
    },
    async openMultipartUploads(keyPrefix) {
      const out: { key: string; uploadId: string }[] = [];
      let keyMarker: string | undefined;
      let uploadIdMarker: string | undefined;
      for (;;) {
        const page = await client.send(
          new ListMultipartUploadsCommand({ Bucket, Prefix: keyPrefix === '' ? prefix : k(keyPrefix.replace(/\/$/, '')), ...(keyMarker ? { KeyMarker: keyMarker } : {}), ...(uploadIdMarker ? { UploadIdMarker: uploadIdMarker } : {}) }),
        );
        for (const u of page.Uploads ?? []) if (u.Key && u.UploadId) out.push({ key: u.Key.slice(prefix.length), uploadId: u.UploadId });
        if (!page.IsTruncated) return out;
        keyMarker = page.NextKeyMarker;
        uploadIdMarker = page.NextUploadIdMarker;
      }
    },
  };
}

/**
 * Blobs in an S3-compatible bucket (`@aws-sdk/client-s3`). Uploads and downloads by clients go
 * straight to the bucket through presigned URLs (the signature covers the exact `content-length`, so
 * the bucket itself refuses another size); the platform's own writes carry their SHA-256 in the
 * object's metadata (`x-amz-meta-sha256`). An object a client PUT has no such hash: `digest` reads it.
 */
export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore & { client: S3Client } {
  const bucket = s3Bucket(options);
  return { kind: 's3', client: bucket.client, ...s3Objects(bucket), ...s3Uploads(bucket) };
}
