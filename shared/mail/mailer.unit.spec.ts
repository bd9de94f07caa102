import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { qaMetrics } from '../metrics/index.js';
import { createMailer } from './mailer.js';

/** The process logger's redaction, writing JSON lines into an array. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  // Same options as the process logger (redaction included), another destination.
  const logger = pino({ level: 'info', redact: { paths: ['mail.text'], censor: '[redacted]' } }, stream);
  return { lines, logger };
}

const mail = { to: 'bob@example.com', subject: 'You are invited', text: 'Hello,\nopen http://localhost:8080/activate?token=abc-123_x to join.\nBye' };

describe('mail without SMTP_URL', () => {
  it('outside production logs the mailed link itself, the text still redacted', async () => {
    const { lines, logger } = capture();
    await createMailer({ from: 'x@localhost', logger }).send(mail);
    const entry = lines.find((l) => l.msg === 'mail (no SMTP_URL set)')!;
    expect(entry.links).toEqual(['http://localhost:8080/activate?token=abc-123_x']);
    expect((entry.mail as { text: string }).text).toBe('[redacted]');
    expect(lines.some((l) => l.level === 40)).toBe(false);
  });

  it('in production warns at creation that mail goes nowhere and logs no link', async () => {
    const { lines, logger } = capture();
    const mailer = createMailer({ from: 'x@localhost', logger, production: true });
    expect(lines.find((l) => l.level === 40)?.msg).toMatch(/SMTP_URL is not set/);
    await mailer.send(mail);
    const entry = lines.find((l) => l.msg === 'mail (no SMTP_URL set)')!;
    expect(entry.links).toBeUndefined();
    expect(JSON.stringify(entry)).not.toContain('token=abc');
  });
});

describe('mail metrics', () => {
  const count = async (outcome: string) => (await qaMetrics.mails.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;

  it('counts a mail written to the log as logged', async () => {
    const { logger } = capture();
    const logged = await count('logged');
    await createMailer({ from: 'x@localhost', logger }).send(mail);
    expect(await count('logged')).toBe(logged + 1);
  });
});
