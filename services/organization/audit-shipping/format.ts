import type { ShippedAuditEntry } from '#projections/org-audit/index.js';

/*
 * How an audited event reads at the SIEM. Syslog: one RFC 5424 message, facility 13 (log audit),
 * severity 5 (notice), app-name `qa-platform`, msgid the event type, structured data `audit@32473`
 * (company, actor, resource, log position, chain number and hash) and as MSG the JSON the audit export
 * gives for the event; framed by octet counting (RFC 6587 3.4.1, RFC 5425 4.3: `<length> <message>`).
 * HTTP: one JSON line per event, the export's entry with its company and chain place, or Splunk's HTTP
 * Event Collector shape around it.
 */

/** Facility 13 (log audit) × 8 + severity 5 (notice). */
export const SYSLOG_PRI = 13 * 8 + 5;
export const APP_NAME = 'qa-platform';
/** The structured data's id: a private one under the enterprise number RFC 5612 sets aside for documentation. */
export const SD_ID = 'audit@32473';

/** PRINTUSASCII without space, at most `max` characters; `-` (NILVALUE) when empty. */
function header(value: string, max: number): string {
  const clean = value.replace(/[^\x21-\x7e]/g, '_').slice(0, max);
  return clean === '' ? '-' : clean;
}

/** A PARAM-VALUE: `"`, `\` and `]` escaped (RFC 5424 6.3.3). */
const paramValue = (v: unknown) => String(v ?? '').replace(/["\\\]]/g, (c) => `\\${c}`);

/** The JSON of one event as the shipping sends it: the export's entry, its company and its place in the company's chain. */
export function eventRecord(item: ShippedAuditEntry): Record<string, unknown> {
  return { ...item.entry, companyId: item.companyId, chainSeq: item.chainSeq, chainHash: item.chainHash };
}

/** One RFC 5424 message for an audited event. */
export function syslogMessage(item: ShippedAuditEntry, hostname: string, procId: string | number): string {
  const e = item.entry;
  const params: [string, unknown][] = [
    ['companyId', item.companyId],
    ['actorId', e.actorId ?? ''],
    ['actor', e.actorName ?? ''],
    ['resourceType', e.resourceType],
    ['resourceId', e.resourceId],
    ['position', e.position],
    ['chainSeq', item.chainSeq ?? ''],
    ['chainHash', item.chainHash ?? ''],
  ];
  const sd = `[${SD_ID} ${params.map(([k, v]) => `${k}="${paramValue(v)}"`).join(' ')}]`;
  return `<${SYSLOG_PRI}>1 ${e.occurredAt} ${header(hostname, 255)} ${APP_NAME} ${header(String(procId), 128)} ${header(e.eventType, 32)} ${sd} ${JSON.stringify(e)}`;
}

/** A message framed by octet counting: its length in bytes (UTF-8), a space, the message. */
export function octetFrame(message: string): string {
  return `${Buffer.byteLength(message, 'utf8')} ${message}`;
}

export type HttpFormat = 'jsonl' | 'splunk-hec';

/** A batch's body for the HTTP collector: one JSON object a line. */
export function httpBody(items: readonly ShippedAuditEntry[], format: HttpFormat, hostname: string): string {
  return items
    .map((item) =>
      JSON.stringify(
        format === 'jsonl'
          ? eventRecord(item)
          : { time: Date.parse(item.entry.occurredAt) / 1000, host: hostname, source: APP_NAME, sourcetype: 'qa-platform:audit', event: eventRecord(item) },
      ),
    )
    .join('\n') + '\n';
}
