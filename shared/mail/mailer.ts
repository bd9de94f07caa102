import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import { qaMetrics } from '../metrics/index.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends platform mail (invitations, password resets). */
export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): Promise<void>;
}

/** The links of a mail's text (activation, reset, session invitation). */
export const linksOf = (text: string): string[] => text.match(/https?:\/\/[^\s<>"')]+/g) ?? [];

/**
 * Mail over SMTP (`SMTP_URL`, e.g. `smtp://user:pass@host:587`). Without one, outside production a
 * mail is written to the log with its links in the clear (`links`), so a local installation can
 * follow an invitation or a reset; in production its text stays redacted, and a warning at start-up
 * says that mail goes nowhere.
 */
export function createMailer(options: { smtpUrl?: string; from: string; logger: Logger; production?: boolean }): Mailer {
  if (!options.smtpUrl) {
    if (options.production) options.logger.warn('SMTP_URL is not set: invitations, password resets and session invitations are not mailed to anyone');
    return {
      async send(mail) {
        const links = options.production ? undefined : linksOf(mail.text);
        options.logger.info({ mail: { to: mail.to, subject: mail.subject, text: mail.text }, ...(links ? { links } : {}) }, 'mail (no SMTP_URL set)');
        qaMetrics.mails.inc({ outcome: 'logged' });
      },
      async close() {},
    };
  }
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    async send(mail) {
      try {
        await transport.sendMail({ from: options.from, ...mail });
      } catch (err) {
        qaMetrics.mails.inc({ outcome: 'failed' });
        throw err;
      }
      qaMetrics.mails.inc({ outcome: 'sent' });
    },
    async close() {
      transport.close();
    },
  };
}
