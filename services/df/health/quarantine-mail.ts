import { companyAdministrators } from '#projections/org-directory/index.js';
import { labelOfDevice } from '#projections/df-devices/index.js';
import type { Platform } from '../../platform.js';
import { EventMailer, type EventMail } from '../core/event-mail.js';

interface Changed {
  deviceId: string;
  companyId: number | null;
  from: string | null;
  cause: string;
  health: { state: string; reasons: string[]; checkedAt: string };
}

/** Whether a `DeviceHealthChanged` took a device into quarantine (not a quarantine that only changed its reasons). */
export const entersQuarantine = (p: Changed): boolean => p.health.state === 'quarantined' && p.from !== 'quarantined' && typeof p.companyId === 'number';

/** The mail that says a device was quarantined: the device, why, what caused it, and where to release it. */
export function quarantineMail(p: Changed, label: { name: string; model: string } | null, link: string): { subject: string; text: string } {
  const name = label ? `${label.name}${label.model && label.model !== label.name ? ` (${label.model})` : ''}` : p.deviceId;
  const reasons = p.health.reasons.length > 0 ? p.health.reasons.map((r) => `- ${r}`).join('\n') : '- (no reason recorded)';
  return {
    subject: `Device quarantined: ${name}`,
    text:
      `The device ${name} (${p.deviceId}) was quarantined at ${p.health.checkedAt} (cause: ${p.cause}).\n\n` +
      `Why:\n${reasons}\n\n` +
      `No session, WebDriver session, booking or test run gets it until an administrator releases it. ` +
      `Look at it and release it on its page when it is fit again: ${link}\n`,
  };
}

/** Mails a quarantine to the device's company's administrators (`EventMailer` follows the log and claims each once). */
const QUARANTINE_MAIL = (platform: Platform): EventMail => ({
  what: 'the quarantine mail',
  schemaName: 'df_health_mails',
  tables: { position: 'df_health_mail_position', positionName: 'quarantine', claims: 'df_health_mails', subjectColumn: 'device_id' },
  eventTypes: ['DeviceHealthChanged'],
  subjectOf: (event) => (entersQuarantine(event.payload as Changed) ? (event.payload as Changed).deviceId : null),
  send: (event) => send(platform, event.payload as Changed),
});

/**
 * Mails a company's administrators when one of its devices is quarantined, whatever quarantined it
 * (a failed battery, a failed reset, failed mending). It follows `DeviceHealthChanged` in the event log
 * from its own stored position (its first start follows from the log's head); each quarantine is
 * claimed by its event's id before the mail is sent, so a replay, a restart or a second replica never
 * mails it twice. A mail that cannot be sent (the SMTP server away) frees its claim and is tried again
 * with a growing pause, the position held until it is sent; a process that dies between the claim and
 * the send loses that one mail (at most once).
 */
export class QuarantineMailer extends EventMailer {
  constructor(platform: Platform) {
    super(platform, QUARANTINE_MAIL(platform));
  }
}

/** One mail to each active administrator of the device's company; how many were mailed. */
async function send(platform: Platform, p: Changed): Promise<number> {
  const { db, mailer, publicAddress } = platform;
  const admins = await companyAdministrators(db, p.companyId!);
  if (admins.length === 0) return 0;
  const mail = quarantineMail(p, await labelOfDevice(db, p.deviceId), publicAddress.link(`/devices/${encodeURIComponent(p.deviceId)}`));
  for (const admin of admins) await mailer.send({ to: admin.email, ...mail });
  platform.logger.info({ deviceId: p.deviceId, recipients: admins.length }, 'quarantine mailed to the administrators');
  return admins.length;
}
