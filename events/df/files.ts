import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';
import { tenantScope } from '../fields.js';

const instant = z.iso.datetime({ offset: true });
const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * A file uploaded to the device farm (`df-file-<fileId>`): `pending` from the upload's start until it
 * is confirmed (`ready`), rejected (`failed`: wrong size or checksum, not what its name claims) or
 * aborted; `ready` files may be catalogued as an app version, and deleted.
 */
export const fileEvents = defineEvents({
  FileUploadStarted: z.object({
    fileId: z.string(),
    ...tenantScope,
    name: z.string(),
    size: z.number().int().nonnegative(),
    contentType: z.string(),
    /** The SHA-256 the client declared; checked at confirmation. */
    sha256: sha256.nullable(),
    /** Where the confirmed bytes live: a key no signed URL ever names. */
    blobKey: z.string(),
    /**
     * Where the client's signed URLs put the bytes (single PUT or multipart); confirmation moves them to
     * `blobKey`. Absent on uploads from before the two were apart (the bytes went to `blobKey` itself).
     */
    uploadKey: z.string().optional(),
    /** Multipart uploads only: the storage's upload id, the part size and count. */
    uploadId: z.string().nullable(),
    partSize: z.number().int().nullable(),
    partCount: z.number().int().nullable(),
    /** Unconfirmed after this (plus a grace), the upload is cleaned up. */
    expiresAt: instant,
    uploadedBy: z.number().int(),
  }),
  /** `reason`: `aborted` (the client), `expired` (never confirmed). Its bytes are gone. */
  FileUploadAborted: z.object({ fileId: z.string(), reason: z.enum(['aborted', 'expired']) }),
  FileConfirmed: z.object({ fileId: z.string(), size: z.number().int().nonnegative(), sha256, kind: z.enum(['app', 'file']) }),
  /** The bytes were not what was announced; they are deleted. */
  FileRejected: z.object({ fileId: z.string(), code: z.string(), reason: z.string() }),
  /** The file is a version of a catalogued app. */
  FileCatalogued: z.object({ fileId: z.string(), appId: z.string(), versionId: z.string() }),
  FileDeleted: z.object({ fileId: z.string(), reason: z.string() }),
});
export type FileEvent = EventOf<typeof fileEvents>;
export const FILE_EVENT_TYPES = fileEvents.types;
/** Stream of one uploaded file. */
export const fileStream = (fileId: string) => `df-file-${fileId}`;

/** What an app build says of itself: its version, the OS versions it needs and targets, its ABIs and permissions. */
export const BuildFacts = {
  versionName: z.string(),
  versionCode: z.string(),
  minOs: z.string(),
  targetOs: z.string(),
  abis: z.array(z.string()),
  permissions: z.array(z.string()),
};

/**
 * An app of the catalog (`df-app-<appId>`, one per workspace, platform and package or bundle id) and
 * its versions; a version is one build (its bytes' SHA-256), so the same bytes twice are one version.
 */
export const appEvents = defineEvents({
  AppVersionAdded: z.object({
    appId: z.string(),
    ...tenantScope,
    platform: z.enum(['android', 'ios']),
    identifier: z.string(),
    name: z.string(),
    /** The icon's blob, when the build has a bitmap icon. */
    iconKey: z.string().nullable(),
    versionId: z.string(),
    ...BuildFacts,
    fileId: z.string(),
    size: z.number().int().nonnegative(),
    sha256,
  }),
  AppVersionDeleted: z.object({ appId: z.string(), versionId: z.string(), fileId: z.string() }),
  AppDeleted: z.object({ appId: z.string(), versionIds: z.array(z.string()) }),
});
export type AppEvent = EventOf<typeof appEvents>;
export const APP_EVENT_TYPES = appEvents.types;
/** Stream of one catalogued app. */
export const appStream = (appId: string) => `df-app-${appId}`;
