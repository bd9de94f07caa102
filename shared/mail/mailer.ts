import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

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

/**
 * Mail over SMTP (`SMTP_URL`, e.g. `smtp://user:pass@host:587`); without one, mails are written to
 * the log so a local installation still shows reset links.
 */
export function createMailer(options: { smtpUrl?: string; from: string; logger: Logger }): Mailer {
  if (!options.smtpUrl) {
    return {
      async send(mail) {
        options.logger.info({ mail: { to: mail.to, subject: mail.subject, text: mail.text } }, 'mail (no SMTP_URL set)');
      },
      async close() {},
    };
  }
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from: options.from, ...mail });
    },
    async close() {
      transport.close();
    },
  };
}
