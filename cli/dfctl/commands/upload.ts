import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { basename, extname } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DeviceFileRecord as FileView } from '@qa-platform/client';
import { errorOf, userAgent, type Api } from '../api.js';
import { intFlag, positionals } from '../args.js';
import type { Command } from '../command.js';
import { CliError, EXIT, isNetworkError, unreachable, usage } from '../errors.js';
import { formatBytes, printJson, printLine } from '../output.js';
import { Progress } from '../progress.js';

const MiB = 1024 * 1024;
/** Above this a file goes up in parts: one broken connection then costs one part, not the whole file. */
const MULTIPART_ABOVE = 64 * MiB;

const TYPES: Record<string, string> = {
  '.apk': 'application/vnd.android.package-archive',
  '.ipa': 'application/octet-stream',
  '.zip': 'application/zip',
  '.json': 'application/json',
  '.txt': 'text/plain',
  '.log': 'text/plain',
  '.csv': 'text/csv',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.mp4': 'video/mp4',
  '.pdf': 'application/pdf',
};

async function sha256Of(path: string, progress: Progress): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: MiB })) {
    hash.update(chunk as Buffer);
    progress.add((chunk as Buffer).length);
  }
  return hash.digest('hex');
}

/**
 * PUTs bytes `start..end` (inclusive) of the file to a signed URL, streaming them (never the whole
 * file in memory) and counting what leaves into `progress`. Resolves with the answer's ETag.
 */
async function putSlice(url: URL, headers: Record<string, string>, path: string, start: number, end: number, progress: Progress): Promise<string | undefined> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const req = send(url, { method: 'PUT', headers: { 'user-agent': userAgent(), ...headers, 'content-length': String(end - start + 1) } });
  const answered = new Promise<IncomingMessage>((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
  });
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      progress.add(chunk.length);
      done(null, chunk);
    },
  });
  try {
    await Promise.all([pipeline(createReadStream(path, { start, end, highWaterMark: MiB }), counter, req), answered]);
  } catch (err) {
    // The storage may answer (413, 403) before taking every byte and close: its answer says why.
    const res = await Promise.race([answered, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1000))]).catch(() => undefined);
    if (!res) {
      if (isNetworkError(err)) throw unreachable(url.origin, err);
      throw err;
    }
  }
  const res = await answered;
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  if ((res.statusCode ?? 0) >= 300) throw await errorOf(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'), `the upload of bytes ${start}-${end} answered ${res.statusCode}`);
  const etag = res.headers.etag;
  return typeof etag === 'string' ? etag : undefined;
}

async function single(api: Api, path: string, meta: { name: string; size: number; contentType: string; sha256: string }, progress: Progress): Promise<FileView> {
  const signed = await api.post<{ fileId: string; url: string; method: string; headers: Record<string, string> }>('/df/api/files/presigned-upload', meta);
  await putSlice(api.url(signed.url), signed.headers ?? {}, path, 0, meta.size - 1, progress);
  return api.post<FileView>(`/df/api/files/${signed.fileId}/confirm`);
}

async function multipart(api: Api, path: string, meta: { name: string; size: number; contentType: string; sha256: string }, partSize: number | undefined, progress: Progress): Promise<FileView> {
  const started = await api.post<{ fileId: string; partSize: number; partCount: number }>('/df/api/files/multipart/initiate', { ...meta, ...(partSize ? { partSize } : {}) });
  const parts: { partNumber: number; etag: string }[] = [];
  try {
    for (let n = 1; n <= started.partCount; n++) {
      const start = (n - 1) * started.partSize;
      const end = Math.min(meta.size, n * started.partSize) - 1;
      let etag: string | undefined;
      // A part that broke off is sent again with a fresh URL (docs/modules/files.md, "Retrying a part").
      for (let attempt = 1; ; attempt++) {
        const signed = await api.get<{ url: string }>(`/df/api/files/multipart/${started.fileId}/part/${n}`);
        try {
          etag = await putSlice(api.url(signed.url), {}, path, start, end, progress);
          break;
        } catch (err) {
          if (attempt >= 3 || !(err instanceof CliError) || err.exitCode !== EXIT.UNREACHABLE) throw err;
          progress.rewind(end - start + 1);
        }
      }
      if (!etag) throw new CliError(`part ${n} was stored without an ETag`, 'BAD_ANSWER');
      parts.push({ partNumber: n, etag });
    }
    return await api.post<FileView>(`/df/api/files/multipart/${started.fileId}/complete`, { parts });
  } catch (err) {
    // Leave nothing half-uploaded behind: the parts already stored are deleted with the upload.
    await api.request('DELETE', `/df/api/files/multipart/${started.fileId}`).catch(() => undefined);
    throw err;
  }
}

/**
 * Uploads one local file to the files catalog (by signed URL, in parts above 64 MiB or when asked), with
 * its SHA-256 so the server verifies the bytes, showing progress on stderr; answers the filed record
 * (an APK or IPA is filed in the app catalog: its `appId` and `versionId`).
 */
export async function uploadFile(api: Api, path: string, options: { name?: string | undefined; contentType?: string | undefined; multipart?: boolean; partMiB?: number | undefined } = {}): Promise<FileView> {
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw usage(`${path} is not a file`);
    size = st.size;
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 'FILE_UNREADABLE', EXIT.NOT_FOUND);
  }
  if (size === 0) throw usage(`${path} is empty; there is nothing to upload`);
  const name = options.name ?? basename(path);
  const contentType = options.contentType ?? TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
  const hashing = new Progress('hashing  ', size);
  const sha256 = await sha256Of(path, hashing);
  hashing.finish();
  const meta = { name, size, contentType, sha256 };
  const sending = new Progress('uploading', size);
  const inParts = options.multipart === true || options.partMiB !== undefined || size > MULTIPART_ABOVE;
  const file = inParts ? await multipart(api, path, meta, options.partMiB === undefined ? undefined : options.partMiB * MiB, sending) : await single(api, path, meta, sending);
  sending.finish();
  return file;
}

export const upload: Command = {
  name: 'upload',
  summary: 'upload a file (an APK, an IPA, any file) to the files catalog',
  usage: `dfctl upload <file> [--name <name>] [--content-type <type>] [--multipart] [--part-size <MiB>]

Sends the file straight to storage by signed URL (in parts above 64 MiB, or with --multipart),
with its SHA-256 so the server verifies the bytes, and prints the file's id. A progress bar is
shown on stderr when it is a terminal. APKs and IPAs are read and filed in the app catalog.`,
  flags: { values: ['name', 'content-type', 'part-size'], booleans: ['multipart'] },
  async run(ctx) {
    const [path] = positionals(ctx.args, ['file']);
    const partMiB = intFlag(ctx.args, 'part-size', 5, 512);
    const file = await uploadFile(ctx.api(), path!, {
      name: ctx.args.values.get('name'),
      contentType: ctx.args.values.get('content-type'),
      multipart: ctx.args.booleans.has('multipart'),
      partMiB,
    });
    if (ctx.json) return printJson(file);
    const app = file.kind === 'app' && file.appId ? `, app ${file.appId} version ${file.versionId}` : '';
    printLine(`Uploaded ${file.name} (${formatBytes(file.size)}, ${file.status}${app}): file ${file.id}`);
  },
};
