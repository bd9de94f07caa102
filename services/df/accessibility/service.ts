import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { accessibilityAuditStream, accessibilityEvents, type ExportFormat, type RecordedFinding, type TriageStatus } from '#events/df/accessibility.js';
import { findAudit, findExport, findFinding, findScan, latestTriage, listFindings, listScans, type AuditView, type ExportView } from '#projections/df-accessibility/index.js';
import { findDevice, listDevices, type DeviceView } from '#projections/df-devices/index.js';
import type { SessionRecord } from '#projections/df-sessions/index.js';
import { commandContext, handleCommand } from '#shared/es/index.js';
import { AppError, found } from '#shared/errors.js';
import type { Platform } from '../../platform.js';
import type { Caller } from '../http.js';
import type { SessionPort } from '../core/session-port.js';
import { usableDevices } from '../core/device-health.js';
import { auditDecider, type AuditCommand } from './decide.js';
import { EXPORT_TYPES, renderCsv, renderHtml, renderJson, type ExportContent } from './exports.js';

const READ_MODELS = ['df-accessibility'];
/** Why a device could not be taken for a URL audit: another one may be free. */
const TAKEN = new Set(['DEVICE_BUSY', 'DEVICE_UNAVAILABLE', 'DEVICE_OFFLINE', 'NOT_FOUND', 'DEVICE_RESERVED', 'DEVICE_UNHEALTHY', 'DEVICE_MENDING']);
/** A scan runs axe-core over a whole page, or dumps and measures an Android screen: longer than a tap. */
const SCAN_TIMEOUT_MS = 90_000;

const folder = (companyId: number, auditId: string) => `df/company-${companyId}/accessibility/${auditId}`;
export const fingerprintOf = (platform: string, scope: string, ruleId: string, selector: string) =>
  createHash('sha256').update(`${platform}\n${scope}\n${ruleId}\n${selector}`).digest('hex').slice(0, 32);

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  return Buffer.concat(chunks);
}

/**
 * Accessibility audits: a report started on a session, scans of the session's current screen (the
 * device's engine, a screenshot, findings with fingerprints and carried triage), completion, triage,
 * and exports generated in the background.
 */
export class AccessibilityService {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly platform: Platform,
    private readonly sessions: SessionPort,
  ) {}

  async stop(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  async get(caller: Pick<Caller, 'companyId' | 'workspaceId'>, auditId: string): Promise<AuditView> {
    return found(await findAudit(this.platform.db, caller, auditId), 'Audit not found');
  }

  async start(caller: Caller, session: SessionRecord, name: string | undefined): Promise<AuditView> {
    const device = await findDevice(this.platform.db, this.sessions.deviceScope(caller), session.deviceId);
    const auditId = randomUUID();
    await this.run(caller, {
      type: 'Start',
      auditId,
      name: name ?? `${session.name} audit`,
      sessionId: session.id,
      deviceId: session.deviceId,
      platform: device?.platform ?? 'unknown',
      companyId: caller.companyId,
      workspaceId: caller.workspaceId,
      createdBy: caller.userId,
    });
    return this.get(caller, auditId);
  }

  /**
   * A stand-alone report of a list of URLs: a free browser device (or the one named) is taken in a
   * session of its own, the report answered at once, and each URL opened and scanned in the
   * background; the report is completed and the session ended when the last one is done. Clients
   * poll the report until it is `completed`.
   */
  async startForUrls(caller: Caller, input: { name?: string | undefined; urls: string[]; deviceId?: string | undefined }): Promise<AuditView> {
    const scope = this.sessions.deviceScope(caller);
    let candidates: DeviceView[];
    if (input.deviceId) {
      const device = found(await findDevice(this.platform.db, scope, input.deviceId), 'Device not found');
      if (device.platform !== 'web') throw new AppError('VALIDATION_FAILED', 'A URL audit runs on a browser device', { details: [{ path: 'deviceId', message: 'not a browser device' }] });
      candidates = [device];
    } else {
      // Never a device its health holds; when only held ones are free, 409 DEVICE_UNHEALTHY says why.
      candidates = usableDevices((await listDevices(this.platform.db, scope, { platform: ['web'], status: ['available'] }, { page: 0, size: 50, sortBy: 'name', sortDir: 'asc' })).content);
    }
    const name = input.name ?? `Accessibility of ${input.urls[0]}${input.urls.length > 1 ? ` and ${input.urls.length - 1} more` : ''}`.slice(0, 200);
    for (const device of candidates) {
      let sessionId: string;
      try {
        sessionId = (await this.sessions.create(caller, { deviceId: device.id, type: 'automation', name })).id;
      } catch (err) {
        if (err instanceof AppError && TAKEN.has(err.code) && !input.deviceId) continue;
        throw err;
      }
      const session = await this.sessions.get(caller, sessionId);
      const audit = await this.start(caller, session, name);
      const job = this.scanUrls(caller, session, audit, input.urls).finally(() => this.running.delete(job));
      this.running.add(job);
      return audit;
    }
    throw new AppError('DEVICE_UNAVAILABLE', 'No browser device is free for the audit; try again later or name one');
  }

  private async scanUrls(caller: Caller, session: SessionRecord, audit: AuditView, urls: string[]): Promise<void> {
    for (const url of urls) {
      try {
        await this.sessions.control(session, caller, { action: 'openUrl', url }, 'api');
        await this.scan(caller, session, audit);
      } catch (err) {
        this.platform.logger.warn({ err, auditId: audit.id, url }, 'accessibility scan of a URL failed');
      }
    }
    // The device is given back first, so a completed report means its session has ended.
    await this.sessions.end(session, 'accessibility-audit-finished', caller.userId).catch((err: unknown) => this.platform.logger.warn({ err, sessionId: session.id }, 'ending the audit session failed'));
    await this.run(caller, { type: 'Complete', auditId: audit.id }).catch((err: unknown) => this.platform.logger.warn({ err, auditId: audit.id }, 'completing the URL audit failed'));
  }

  /** Scans the session's current screen into the audit; answers the scan and its findings. */
  async scan(caller: Caller, session: SessionRecord, audit: AuditView) {
    if (audit.sessionId !== session.id) throw new AppError('NOT_FOUND', 'Audit not found');
    if (audit.status === 'completed') throw new AppError('AUDIT_COMPLETED', 'The audit is completed; start a new one to scan again');
    const result = await this.sessions.deviceContent(session, { op: 'accessibilityScan' }, SCAN_TIMEOUT_MS);
    const shot = await this.sessions.device(session, { op: 'screenshot', format: 'png' }).catch(() => null);
    const scanId = randomUUID();
    let screenshotKey: string | null = null;
    if (shot) {
      screenshotKey = `${folder(caller.companyId, audit.id)}/scans/${scanId}.png`;
      await this.platform.blobs.put(screenshotKey, Buffer.from(shot.base64, 'base64'), { contentType: 'image/png' });
    }
    const tree = await this.sessions.device(session, { op: 'uiTree' }).catch(() => null);
    let treeKey: string | null = null;
    if (tree) {
      treeKey = `${folder(caller.companyId, audit.id)}/scans/${scanId}.tree.json`;
      await this.platform.blobs.put(treeKey, Buffer.from(JSON.stringify(tree)), { contentType: 'application/json' });
    }
    const withPrints = result.findings.map((f) => ({ ...f, fingerprint: fingerprintOf(audit.platform, result.scope, f.ruleId, f.element.selector) }));
    const carried = await latestTriage(this.platform.db, caller, withPrints.map((f) => f.fingerprint));
    const findings: RecordedFinding[] = withPrints.map((f) => ({
      findingId: randomUUID(),
      ruleId: f.ruleId,
      impact: f.impact,
      wcag: f.wcag,
      description: f.description,
      helpUrl: f.helpUrl,
      element: f.element,
      fingerprint: f.fingerprint,
      triage: carried.get(f.fingerprint) ?? { status: 'open', by: null, reason: null, at: null },
    }));
    await this.run(caller, {
      type: 'RecordScan',
      auditId: audit.id,
      scanId,
      engine: result.engine,
      url: result.url,
      title: result.title,
      scope: result.scope,
      screenshotKey,
      treeKey,
      screen: shot ? { width: shot.width, height: shot.height } : null,
      findings,
    });
    const scan = found(await findScan(this.platform.db, audit.id, scanId), 'Scan not found');
    const { screenshotKey: _k, treeKey: _t, ...view } = scan;
    return { ...view, findings: await listFindings(this.platform.db, audit.id, scanId) };
  }

  async complete(caller: Caller, audit: AuditView): Promise<AuditView> {
    await this.run(caller, { type: 'Complete', auditId: audit.id });
    return this.get(caller, audit.id);
  }

  async triage(caller: Caller, findingId: string, status: TriageStatus, reason: string | null) {
    const finding = found(await findFinding(this.platform.db, caller, findingId), 'Finding not found');
    await this.run(caller, { type: 'Triage', auditId: finding.auditId, findingId, status, reason, by: caller.userId });
    return found(await findFinding(this.platform.db, caller, findingId), 'Finding not found');
  }

  /** Records the request and generates the file in the background; the export is `running` until it is done. */
  async requestExport(caller: Caller, audit: AuditView, format: ExportFormat): Promise<ExportView> {
    const exportId = randomUUID();
    await this.run(caller, { type: 'RequestExport', auditId: audit.id, exportId, format, requestedBy: caller.userId });
    const job = this.generate(caller, audit.id, exportId, format).finally(() => this.running.delete(job));
    this.running.add(job);
    const view = found(await findExport(this.platform.db, audit.id, exportId), 'Export not found');
    const { blobKey: _b, ...rest } = view;
    return rest;
  }

  private async generate(caller: Caller, auditId: string, exportId: string, format: ExportFormat): Promise<void> {
    const ctx = { ...caller, actor: 'accessibility-export' };
    try {
      const audit = await this.get(caller, auditId);
      const scans = await listScans(this.platform.db, auditId);
      const content: ExportContent = {
        audit,
        findings: await listFindings(this.platform.db, auditId),
        scans: await Promise.all(
          scans.map(async (s) => {
            if (format !== 'html' || !s.hasScreenshot) return { ...s, screenshot: null };
            const key = (await findScan(this.platform.db, auditId, s.id))?.screenshotKey;
            const blob = key ? await this.platform.blobs.get(key) : null;
            return { ...s, screenshot: blob ? await readAll(blob.stream) : null };
          }),
        ),
      };
      const text = format === 'csv' ? renderCsv(content) : format === 'json' ? renderJson(content) : renderHtml(content, this.platform.now().toISOString());
      const blobKey = `${folder(caller.companyId, auditId)}/exports/${exportId}.${format}`;
      const info = await this.platform.blobs.put(blobKey, Buffer.from(text, 'utf8'), { contentType: EXPORT_TYPES[format] });
      await this.run(ctx, { type: 'FinishExport', auditId, exportId, state: 'succeeded', blobKey, size: info.size, error: null });
    } catch (err) {
      this.platform.logger.warn({ err, auditId, exportId }, 'accessibility export failed');
      await this.run(ctx, { type: 'FinishExport', auditId, exportId, state: 'failed', blobKey: null, size: null, error: err instanceof Error ? err.message.slice(0, 300) : 'export failed' }).catch(() => undefined);
    }
  }

  private async run(caller: Partial<Caller> & { actor?: string }, command: AuditCommand): Promise<void> {
    const context = commandContext(this.platform, { actorId: caller.actor ?? caller.userId ?? null, companyId: caller.companyId ?? null, workspaceId: caller.workspaceId ?? null });
    const result = await handleCommand({
      store: this.platform.store,
      streamId: accessibilityAuditStream(command.auditId),
      decider: { ...auditDecider, decide: (c: AuditCommand, s) => accessibilityEvents.checked(auditDecider.decide(c, s)) },
      command,
      context,
    });
    if (result.position !== null) await this.platform.readModels.waitFor(result.position, { names: READ_MODELS });
  }
}
