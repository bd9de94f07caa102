import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { blobStoreContract } from './blob-store.contract.js';
import { openS3BlobStore } from './index.js';

/**
 * The S3 adapter against a real S3-protocol server started here (`s3rver`, which keeps objects on disk
 * and checks expiry but not the signature itself), and against a real S3 endpoint when `S3_ENDPOINT`
 * (with `S3_BUCKET`, `S3_ACCESS_KEY_ID`, `S3_SECRET_ACCESS_KEY`, optionally `S3_REGION` and
 * `S3_FORCE_PATH_STYLE`) is set.
 */
/** A write straight to the bucket, as anyone holding its credentials could make: no digest in the metadata. */
const tamperer = (client: S3Client, bucket: string, prefix?: string) => async (key: string, bytes: Buffer) => {
  await client.send(new PutObjectCommand({ Bucket: bucket, Key: prefix ? `${prefix}/${key}` : key, Body: bytes }));
};

blobStoreContract('s3 (s3rver)', {
  strict: false,
  abortsAndListsUploads: false,
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'qa-s3rver-'));
    const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
    const { port } = await server.run();
    const store = await openS3BlobStore({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', bucket: 'qa-blobs', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
    await store.client.send(new CreateBucketCommand({ Bucket: 'qa-blobs' }));
    return {
      store,
      tamper: tamperer(store.client, 'qa-blobs'),
      async close() {
        store.client.destroy();
        await server.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
});

const endpoint = process.env.S3_ENDPOINT;
blobStoreContract(`s3 (${endpoint ?? 'a real endpoint'})`, {
  strict: true,
  abortsAndListsUploads: true,
  ...(endpoint ? {} : { skipBecause: 'S3_ENDPOINT is not set (with S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY)' }),
  async open() {
    const prefix = `contract-${randomBytes(4).toString('hex')}`;
    const bucket = process.env.S3_BUCKET ?? 'qa-blobs';
    const store = await openS3BlobStore({
      endpoint: endpoint!,
      region: process.env.S3_REGION ?? 'us-east-1',
      bucket,
      accessKeyId: process.env.S3_ACCESS_KEY_ID,
      secretAccessKey: process.env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: process.env.S3_FORCE_PATH_STYLE !== 'false',
      prefix,
    });
    return { store, tamper: tamperer(store.client, bucket, prefix), close: async () => store.client.destroy() };
  },
});
