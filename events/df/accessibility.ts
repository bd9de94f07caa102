import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';
import { tenantScope } from '../fields.js';

/** How much a finding matters, axe-core's scale (the Android rules use the same one). */
export const Impact = z.enum(['critical', 'serious', 'moderate', 'minor']);
export type Impact = z.output<typeof Impact>;
/** Where a finding stands after someone looked at it. */
export const TriageStatus = z.enum(['open', 'confirmed', 'false_positive', 'wont_fix', 'fixed']);
export type TriageStatus = z.output<typeof TriageStatus>;
export const ExportFormat = z.enum(['csv', 'json', 'html']);
export type ExportFormat = z.output<typeof ExportFormat>;

const Bounds = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
export const Triage = z.object({ status: TriageStatus, by: z.number().int().nullable(), reason: z.string().nullable(), at: z.string().nullable() });
export type Triage = z.output<typeof Triage>;

/** One finding as a scan records it: a rule broken by one element. */
export const RecordedFinding = z.object({
  findingId: z.string(),
  ruleId: z.string(),
  impact: Impact,
  wcag: z.array(z.string()),
  description: z.string(),
  helpUrl: z.string(),
  element: z.object({ selector: z.string(), text: z.string(), html: z.string().nullable(), bounds: Bounds }),
  /** sha256 of platform, scope (site page or app package), rule and element selector: the same issue in another audit. */
  fingerprint: z.string(),
  /** The triage carried from the latest earlier triage of the same fingerprint in the workspace, or `open`. */
  triage: Triage,
});
export type RecordedFinding = z.output<typeof RecordedFinding>;

/**
 * Accessibility audits (`accessibility-audit-<auditId>`): the report, each scan of a screen with its
 * findings, its completion, triage of its findings, and exports.
 */
export const accessibilityEvents = defineEvents({
  AccessibilityAuditStarted: z.object({
    auditId: z.string(),
    name: z.string(),
    sessionId: z.string().nullable(),
    deviceId: z.string(),
    platform: z.string(),
    ...tenantScope,
    createdBy: z.number().int(),
  }),
  AccessibilityScanRecorded: z.object({
    auditId: z.string(),
    scanId: z.string(),
    engine: z.string(),
    url: z.string(),
    title: z.string(),
    scope: z.string(),
    screenshotKey: z.string().nullable(),
    /** The UI tree of the scanned screen (JSON), as `GET .../ui-tree` answers it. */
    treeKey: z.string().nullable(),
    screen: z.object({ width: z.number(), height: z.number() }).nullable(),
    findings: z.array(RecordedFinding),
  }),
  AccessibilityAuditCompleted: z.object({ auditId: z.string() }),
  AccessibilityFindingTriaged: z.object({
    auditId: z.string(),
    findingId: z.string(),
    fingerprint: z.string(),
    status: TriageStatus,
    reason: z.string().nullable(),
    by: z.number().int(),
  }),
  AccessibilityExportRequested: z.object({ auditId: z.string(), exportId: z.string(), format: ExportFormat, requestedBy: z.number().int() }),
  AccessibilityExportFinished: z.object({
    auditId: z.string(),
    exportId: z.string(),
    state: z.enum(['succeeded', 'failed']),
    blobKey: z.string().nullable(),
    size: z.number().int().nullable(),
    error: z.string().nullable(),
  }),
});
export type AccessibilityEvent = EventOf<typeof accessibilityEvents>;
export const ACCESSIBILITY_EVENT_TYPES = accessibilityEvents.types;

export const accessibilityAuditStream = (auditId: string) => `accessibility-audit-${auditId}`;
