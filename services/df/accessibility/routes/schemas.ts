import { z } from 'zod';
import { ExportFormat, RecordedFinding } from '#events/df/accessibility.js';
import { idParam, multi } from '../../http.js';

/** The schemas the accessibility routes share. */

const Counts = z.object({ critical: z.number(), serious: z.number(), moderate: z.number(), minor: z.number() });
export const AuditSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    sessionId: z.string().nullable(),
    deviceId: z.string(),
    platform: z.string(),
    status: z.enum(['in_progress', 'completed']),
    scanCount: z.number().int(),
    findingCounts: Counts,
    createdBy: z.number().int(),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
  })
  .meta({ id: 'DfAccessibilityAudit' });
/** A finding as a scan recorded it, with where it stands and when it was found. */
export const FindingSchema = z
  .object({ id: z.string(), auditId: z.string(), scanId: z.string(), ...RecordedFinding.omit({ findingId: true }).shape, createdAt: z.string() })
  .meta({ id: 'DfAccessibilityFinding' });
export const ScanSchema = z
  .object({
    id: z.string(),
    auditId: z.string(),
    engine: z.string(),
    url: z.string(),
    title: z.string(),
    scope: z.string(),
    findingCount: z.number().int(),
    screen: z.object({ width: z.number(), height: z.number() }).nullable(),
    hasScreenshot: z.boolean(),
    hasTree: z.boolean(),
    createdAt: z.string(),
  })
  .meta({ id: 'DfAccessibilityScan' });
export const ScanWithFindings = ScanSchema.extend({ findings: z.array(FindingSchema) });
export const ExportSchema = z
  .object({
    id: z.string(),
    auditId: z.string(),
    format: ExportFormat,
    state: z.enum(['running', 'succeeded', 'failed']),
    size: z.number().nullable(),
    error: z.string().nullable(),
    url: z.string().optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'DfAccessibilityExport' });

export const ListQuery = z.object({
  sessionId: multi(idParam),
  deviceId: multi(idParam),
  platform: multi(z.string().max(20)),
  status: multi(z.enum(['in_progress', 'completed'])),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
export const AuditParams = z.object({ auditId: idParam });
export const tags = ['Device testing: accessibility'];
