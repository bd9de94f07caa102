import { describe, expect, it } from 'vitest';
import { createHttpServer } from './http/server.js';
import { createLogger, redactUrl } from './logger.js';

describe('the process log', () => {
  it("keeps a sign-in callback's code, state, tokens and SAML answer out of the request line, [redacted] in their place", async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger({ LOG_LEVEL: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const app = await createHttpServer({ logger, bodyLimit: 1024 });
    app.get('/api/v1/auth/sso/:id/callback', async () => ({ ok: true }));
    await app.ready();
    const secrets = ['the-code-1', 'the-state-2', 'the-id-token-3', 'the-access-token-4', 'the-saml-answer-5', 'the-relay-state-6'];
    const query = `code=${secrets[0]}&state=${secrets[1]}&id_token=${secrets[2]}&access_token=${secrets[3]}&SAMLResponse=${secrets[4]}&RelayState=${secrets[5]}&session_state=kept`;
    await app.inject({ method: 'GET', url: `/api/v1/auth/sso/7/callback?${query}`, headers: { 'x-request-id': 'req-callback-1' } });
    await app.close();
    const mine = lines.filter((l) => l.requestId === 'req-callback-1');
    const text = JSON.stringify(mine);
    for (const secret of secrets) expect(text).not.toContain(secret);
    const incoming = mine.find((l) => l.msg === 'incoming request') as { req: { url: string } };
    expect(incoming.req.url).toBe(
      '/api/v1/auth/sso/7/callback?code=[redacted]&state=[redacted]&id_token=[redacted]&access_token=[redacted]&SAMLResponse=[redacted]&RelayState=[redacted]&session_state=kept',
    );
  });

  it('redacts names however they are cased or percent-encoded, and leaves a URL without them alone', () => {
    expect(redactUrl('/cb?Code=a&%73tate=b&x=1')).toBe('/cb?Code=[redacted]&%73tate=[redacted]&x=1');
    expect(redactUrl('/devices?page=2&code')).toBe('/devices?page=2&code');
    expect(redactUrl('/devices')).toBe('/devices');
  });
});
