import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A file the repository's build made (dfctl, a client package), held in memory to be handed out. */
export interface BuiltFile {
  name: string;
  bytes: Buffer;
  sha256: string;
  etag: string;
  contentType: string;
}

/** Reads a built file with its SHA-256 (the manifest's) and the ETag made from it. */
export function readBuiltFile(dir: string, name: string, contentType: string): BuiltFile {
  const bytes = readFileSync(join(dir, name));
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { name, bytes, sha256, etag: `"${sha256.slice(0, 32)}"`, contentType };
}

/** Sends a built file as a download: cacheable for a few minutes, 304 to a client holding the same. */
export function sendBuiltFile(request: FastifyRequest, reply: FastifyReply, file: BuiltFile): FastifyReply {
  reply
    .header('etag', file.etag)
    .header('cache-control', 'public, max-age=300')
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${file.name}"`);
  if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
  reply.header('content-length', String(file.bytes.length));
  return reply.send(file.bytes);
}
