import { http } from './server.js';

/**
 * Puts a build in the app catalog through the started server as a client does: a signed upload URL,
 * the bytes PUT to it, the upload confirmed. Answers the file's and the catalogued version's ids, and
 * throws with the answer's body at any step that is refused.
 */
export async function catalogued(baseUrl: string, token: string, name: string, bytes: Buffer): Promise<{ fileId: string; versionId: string }> {
  const started = await http(baseUrl, 'POST', '/df/api/files/presigned-upload', { token, body: { name, size: bytes.length, contentType: 'application/octet-stream' } });
  if (started.status !== 201) throw new Error(`presigned-upload ${started.status}: ${JSON.stringify(started.body)}`);
  const put = await fetch(started.body.url, { method: 'PUT', headers: started.body.headers, body: new Uint8Array(bytes) });
  if (put.status !== 200) throw new Error(`PUT of the bytes ${put.status}`);
  const confirmed = await http(baseUrl, 'POST', `/df/api/files/${started.body.fileId}/confirm`, { token });
  if (confirmed.status !== 200 || confirmed.body.kind !== 'app' || typeof confirmed.body.versionId !== 'string') throw new Error(`confirm ${confirmed.status}: ${JSON.stringify(confirmed.body)}`);
  return { fileId: started.body.fileId as string, versionId: confirmed.body.versionId as string };
}
