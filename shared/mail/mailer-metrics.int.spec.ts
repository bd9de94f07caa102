import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { qaMetrics } from '../metrics/index.js';
import { createMailer } from './mailer.js';

const count = async (outcome: string) => (await qaMetrics.mails.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;

describe('mail metrics over SMTP', () => {
  it('counts a mail the SMTP server cannot take as failed, not sent', async () => {
    const failed = await count('failed');
    const sent = await count('sent');
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    const refusing = createMailer({ from: 'x@localhost', logger: pino({ level: 'silent' }), smtpUrl: 'smtp://127.0.0.1:1' });
    await expect(refusing.send({ to: 'bob@example.com', subject: 's', text: 't' })).rejects.toThrow();
    await refusing.close();
    expect({ failed: await count('failed'), sent: await count('sent') }).toEqual({ failed: failed + 1, sent });
  });
});
