import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SessionRecord } from '#projections/df-sessions/index.js';
import type { Sql } from '#shared/db/index.js';
import { AppError } from '#shared/errors.js';
import { requirePermission } from '#shared/http/principal.js';
import { DevicePath } from '#shared/wire/index.js';
import { sessionContent } from '../../core/session-access.js';
import type { SessionService } from '../service.js';
import type { Caller } from '../../http.js';

/** What the apps and files of a session's device share: limits, the session lookup, uploads and device paths. */

/** Largest app (APK) accepted. */
export const MAX_APP_BYTES = 512 * 1024 * 1024;
/** Largest file pushed to a device. */
export const MAX_PUSH_BYTES = 512 * 1024 * 1024;
/** Installing and moving big files take longer than a tap. */
export const TRANSFER_TIMEOUT_MS = 180_000;

export const contentTags = ['Device testing: apps and files'];

export interface DeviceContentRoutesOptions {
  db: Sql;
  sessions: SessionService;
  installFromCatalog: (caller: Caller, session: SessionRecord, what: { versionId?: string | undefined; fileId?: string | undefined }) => Promise<string>;
}

/** The session's device to read (`view`) or to change (`control`, with `df:app:install`). */
export async function deviceSession(db: Sql, request: FastifyRequest, sessionId: string, need: 'view' | 'control'): Promise<{ c: Caller; session: SessionRecord }> {
  const found = await sessionContent(db, request, sessionId, need);
  if (need === 'control') await requirePermission(request, 'df:app:install');
  return { c: found.caller, session: found.session };
}

/** Moving bytes to the device needs a session that runs. */
export function requireActive(session: SessionRecord): void {
  if (session.status !== 'active') throw new AppError('SESSION_NOT_ACTIVE', `The session is ${session.status}`);
}

/** A multipart body: its text fields and the bytes of its one file part, streamed to `consume`. */
export async function readUpload<T>(
  request: FastifyRequest,
  fileField: string,
  maxBytes: number,
  consume: (file: { filename: string; bytes: AsyncIterable<Buffer>; truncated: () => boolean }, fields: Record<string, string>) => Promise<T>,
): Promise<{ fields: Record<string, string>; result: T | null }> {
  if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the file as multipart/form-data with a "${fileField}" part`);
  const fields: Record<string, string> = {};
  let result: T | null = null;
  let seen = false;
  for await (const part of request.parts({ limits: { fileSize: maxBytes + 1, files: 1, fields: 10, fieldSize: 8 * 1024 } })) {
    if (part.type === 'field') {
      fields[part.fieldname] = String(part.value);
      continue;
    }
    if (part.fieldname !== fileField || seen) {
      part.file.resume();
      throw new AppError('BAD_REQUEST', `Unexpected file part "${part.fieldname}"; send the file as "${fileField}"`);
    }
    seen = true;
    const stream = part.file;
    result = await consume({ filename: part.filename, bytes: stream as AsyncIterable<Buffer>, truncated: () => stream.truncated }, fields);
  }
  if (!seen) throw new AppError('VALIDATION_FAILED', 'Request validation failed', { details: [{ path: fileField, message: 'Required' }] });
  return { fields, result };
}

/** A device path from the request (a folder without its trailing slashes), or a 400 naming `field`. */
export function pathOrError(raw: unknown, field = 'path'): string {
  const parsed = DevicePath.safeParse(raw);
  if (!parsed.success) throw new AppError('VALIDATION_FAILED', 'Request validation failed', { details: parsed.error.issues.map((i) => ({ path: field, message: i.message })) });
  return parsed.data.length > 1 ? parsed.data.replace(/\/+$/, '') : parsed.data;
}
