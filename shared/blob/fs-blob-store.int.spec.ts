import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { BlobTooLargeError, createFsBlobStore, InvalidBlobKeyError } from './index.js';

const root = mkdtempSync(join(tmpdir(), 'qa-blob-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const store = createFsBlobStore(root);

describe('file-system blob store', () => {
  it('stores, reads back with info, replaces and deletes', async () => {
    const info = await store.put('company-1/users/7/image', Buffer.from('first'), { contentType: 'image/png' });
    expect(info).toMatchObject({ key: 'company-1/users/7/image', size: 5, contentType: 'image/png' });
    expect(info.sha256).toMatch(/^[0-9a-f]{64}$/);
    await store.put('company-1/users/7/image', Readable.from([Buffer.from('second!')]), { contentType: 'image/jpeg' });
    const got = await store.get('company-1/users/7/image');
    expect(got!.info.contentType).toBe('image/jpeg');
    expect(await text(got!.stream)).toBe('second!');
    expect(await store.usage('company-1')).toBe(7);
    expect(await store.delete('company-1/users/7/image')).toBe(true);
    expect(await store.get('company-1/users/7/image')).toBeNull();
    expect(await store.delete('company-1/users/7/image')).toBe(false);
  });

  it('deletes a folder of keys and nothing beside it', async () => {
    await store.put('company-2/sessions/s1/a.png', Buffer.from('a'), { contentType: 'image/png' });
    await store.put('company-2/sessions/s1/rec/m.json', Buffer.from('{}'), { contentType: 'application/json' });
    await store.put('company-2/sessions/s10/keep.png', Buffer.from('k'), { contentType: 'image/png' });
    await store.deleteFolder('company-2/sessions/s1');
    expect(await store.get('company-2/sessions/s1/a.png')).toBeNull();
    expect(await store.get('company-2/sessions/s1/rec/m.json')).toBeNull();
    expect(await store.usage('company-2')).toBe(1);
    await store.deleteFolder('company-2/sessions/nothing-here');
    await expect(store.deleteFolder('../outside')).rejects.toBeInstanceOf(InvalidBlobKeyError);
  });

  it('refuses keys that could leave the storage root', async () => {
    for (const key of ['../etc/passwd', 'a/../../b', '/abs', 'a//b', 'a/./b', 'sp ace', '']) {
      await expect(store.put(key, Buffer.from('x'), { contentType: 'text/plain' })).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(store.get(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
    }
  });

  it('refuses an upload over its size limit and leaves nothing behind', async () => {
    const big = Readable.from([Buffer.alloc(600), Buffer.alloc(600)]);
    await expect(store.put('limits/big', big, { contentType: 'application/octet-stream', maxBytes: 1000 })).rejects.toBeInstanceOf(
      BlobTooLargeError,
    );
    expect(await store.stat('limits/big')).toBeNull();
    expect(readdirSync(join(root, 'objects', 'limits'))).toEqual([]);
  });
});
