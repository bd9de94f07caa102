import { companyAdministrators } from '#projections/org-directory/index.js';
import { labelOfDevice } from '#projections/df-devices/index.js';
import { Pauses } from '#shared/concurrency.js';
import { applySchema, type Sql } from '#shared/db/index.js';
import type { RecordedEvent, Subscription } from '#shared/es/index.js';
import type { Platform } from '../../platform.js';

/**
 * The mails' own tables: the position this reactor has followed the log to, and one row per quarantine
 * it mailed (its event's id), which makes the mail once per quarantine whatever replays it.
 */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS df_health_mail_position (name text PRIMARY KEY, position text NOT NULL);
  CREATE TABLE IF NOT EXISTS df_health_mails (
    event_id text PRIMARY KEY,
    device_id text NOT NULL,
    recipients integer NOT NULL DEFAULT 0,
    sent_at timestamptz NOT NULL
  );`;

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

/**
 * Mails a company's administrators when one of its devices is quarantined, whatever quarantined it
 * (a failed battery, a failed reset, failed mending). It follows `DeviceHealthChanged` in the event log
 * from its own stored position (its first start follows from the log's head); each quarantine is
 * claimed by its event's id before the mail is sent, so a replay, a restart or a second replica never
 * mails it twice. A mail that cannot be sent (the SMTP server away) frees its claim and is tried again
 * with a growing pause, the position held until it is sent; a process that dies between the claim and
 * the send loses that one mail (at most once).
 */
export class QuarantineMailer {
  private subscription: Subscription | null = null;
  private following: Promise<void> | null = null;
  private stopped = false;
  private readonly pauses = new Pauses();

  constructor(private readonly platform: Platform) {}

  async start(): Promise<void> {
    const { db, store } = this.platform;
    await applySchema(db, 'df_health_mails', SCHEMA);
    await db.query(`INSERT INTO df_health_mail_position (name, position) VALUES ('quarantine', $1) ON CONFLICT (name) DO NOTHING`, [(await store.headPosition()).toString()]);
    this.stopped = false;
    this.following = this.follow(await position(db));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.pauses.wakeAll();
    await this.subscription?.close();
    await this.following;
  }

  private async follow(after: bigint): Promise<void> {
    this.subscription = this.platform.store.subscribe({ after, filter: { eventTypes: ['DeviceHealthChanged'] } });
    try {
      for await (const event of this.subscription) {
        for (let delay = 200; !this.stopped; delay = Math.min(delay * 2, 30_000)) {
          try {
            await this.take(event);
            break;
          } catch (err) {
            this.platform.logger.warn({ err, eventId: event.id }, 'the quarantine mail failed; trying again');
            await this.pauses.pause(delay);
          }
        }
        if (this.stopped) return;
      }
    } catch (err) {
      if (!this.stopped) this.platform.logger.error({ err }, 'the quarantine mail stopped following the event log; a restart follows on from its stored position');
    }
  }

  /** Mails one quarantine once (claimed by its event's id), then moves the position past it. */
  private async take(event: RecordedEvent): Promise<void> {
    const { db } = this.platform;
    const p = event.payload as Changed;
    if (entersQuarantine(p)) {
      const claimed = await db.query(`INSERT INTO df_health_mails (event_id, device_id, sent_at) VALUES ($1, $2, $3) ON CONFLICT (event_id) DO NOTHING RETURNING event_id`, [event.id, p.deviceId, this.platform.now().toISOString()]);
      if (claimed.rows.length > 0) {
        try {
          const sent = await this.send(p);
          await db.query(`UPDATE df_health_mails SET recipients = $2 WHERE event_id = $1`, [event.id, sent]);
        } catch (err) {
          await db.query(`DELETE FROM df_health_mails WHERE event_id = $1`, [event.id]);
          throw err;
        }
      }
    }
    await db.query(`UPDATE df_health_mail_position SET position = $1 WHERE name = 'quarantine' AND position::numeric < $1::numeric`, [event.position.toString()]);
  }

  /** One mail to each active administrator of the device's company; how many were mailed. */
  private async send(p: Changed): Promise<number> {
    const { db, mailer, publicAddress } = this.platform;
    const admins = await companyAdministrators(db, p.companyId!);
    if (admins.length === 0) return 0;
    const mail = quarantineMail(p, await labelOfDevice(db, p.deviceId), publicAddress.link(`/devices/${encodeURIComponent(p.deviceId)}`));
    for (const admin of admins) await mailer.send({ to: admin.email, ...mail });
    this.platform.logger.info({ deviceId: p.deviceId, recipients: admins.length }, 'quarantine mailed to the administrators');
    return admins.length;
  }
}

async function position(db: Sql): Promise<bigint> {
  const r = await db.query<{ position: string }>(`SELECT position FROM df_health_mail_position WHERE name = 'quarantine'`);
  return BigInt(r.rows[0]?.position ?? '0');
}
