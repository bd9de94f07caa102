import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FsBlobStore } from '#shared/blob/index.js';
import type { FileRoutesOptions } from './schemas.js';

/**
 * `/df/api/files/blobs/*`: the file-system store's signed URLs, served by the platform itself. The
 * signature is the credential (a public path for access control), and the body streams to the store
 * untouched by any parser. Registered only when the platform's blobs are that store.
 */
export async function signedBlobRoutes(scope: FastifyInstance, opts: FileRoutesOptions & { blobs: FsBlobStore }): Promise<void> {
  const { files, blobs } = opts;
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
  const serve = async (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) => {
    // One transfer per connection: a signed URL moves one whole file (or part), and an upload may be
    // refused before its body is read. The connection ends with the answer, so none is left open for a
    // graceful shutdown to wait on.
    reply.header('connection', 'close');
    const length = request.headers['content-length'];
    const answer = await blobs.serveSigned({
      method: request.method,
      key: request.params['*'],
      query: request.query as Record<string, string>,
      contentLength: length === undefined ? undefined : Number(length),
      body: request.method === 'PUT' ? request.raw : null,
      range: request.method === 'PUT' ? undefined : request.headers.range,
    }, {
      // A signed PUT writes only while its upload is open: never after the file was confirmed.
      beforeWrite: (key) => files.admitUploadWrite(key),
      onAltered: (key) => request.log.error({ blobKey: key }, 'stored bytes differ from the digest their download URL was signed for; not served'),
    });
    reply.code(answer.status).headers(answer.headers);
    return reply.send(answer.body ?? '');
  };
  scope.route({ method: ['GET', 'HEAD', 'PUT'], url: '/api/files/blobs/*', schema: { hide: true }, bodyLimit: Number.MAX_SAFE_INTEGER, handler: serve });
}
