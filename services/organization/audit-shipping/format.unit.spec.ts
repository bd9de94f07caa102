import { describe, expect, it } from 'vitest';
import type { ShippedAuditEntry } from '#projections/org-audit/index.js';
import { httpBody, octetFrame, syslogMessage } from './format.js';

const item = (over: Partial<ShippedAuditEntry['entry']> = {}): ShippedAuditEntry => ({
  companyId: 7,
  chainSeq: 3,
  chainHash: 'ab'.repeat(32),
  entry: {
    id: '00000000-0000-4000-8000-000000000001', position: '42', occurredAt: '2026-11-29T10:00:00.000Z', eventType: 'WorkspaceRenamed', eventLabel: 'Workspace renamed',
    resourceType: 'workspace', resourceId: '5', resourceName: 'Zürich', workspaceId: 5, actorId: 1, actorName: 'Ann "the admin" [ops]', actorEmail: 'ann@example.test',
    subjectUserId: null, subjectName: null, subjectEmail: null, clientAddress: '127.0.0.1', deviceId: null, sessionId: null, correlationId: null, changes: null, payload: {},
    ...over,
  },
});

describe('an audited event as syslog reads it', () => {
  it('is one RFC 5424 message: PRI 109, app qa-platform, msgid the type, escaped structured data, the export entry as MSG', () => {
    const m = syslogMessage(item(), 'host one', 99);
    expect(m).toMatch(/^<109>1 2026-11-29T10:00:00\.000Z host_one qa-platform 99 WorkspaceRenamed \[audit@32473 companyId="7" actorId="1" actor="Ann \\"the admin\\" \[ops\\]" resourceType="workspace" resourceId="5" position="42" chainSeq="3" chainHash="(ab){32}"\] \{/);
    expect(JSON.parse(m.slice(m.indexOf('] {') + 2))).toEqual(item().entry);
    expect(syslogMessage(item({ eventType: 'X'.repeat(40) }), 'h', 1).split(' ')[5]).toBe('X'.repeat(32));
  });

  it('is framed by its length in bytes, not characters', () => {
    expect(octetFrame('Zürich')).toBe('7 Zürich');
  });
});

describe('an audited event as the HTTP collector reads it', () => {
  it('is one JSON line: the entry with its company and chain place, or wrapped as Splunk HEC wants it', () => {
    const [jsonl] = httpBody([item()], 'jsonl', 'h').split('\n');
    expect(JSON.parse(jsonl!)).toEqual({ ...item().entry, companyId: 7, chainSeq: 3, chainHash: 'ab'.repeat(32) });
    const hec = JSON.parse(httpBody([item()], 'splunk-hec', 'h').trim());
    expect(hec).toMatchObject({ time: Date.parse('2026-11-29T10:00:00.000Z') / 1000, host: 'h', source: 'qa-platform', sourcetype: 'qa-platform:audit', event: { position: '42', companyId: 7 } });
  });
});
