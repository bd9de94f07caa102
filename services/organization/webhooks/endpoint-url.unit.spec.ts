import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { AppError } from '#shared/errors.js';
import { checkedEndpointUrl } from './endpoint-url.js';
import { signedHeaders } from './signature.js';

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof AppError ? err.code : String(err);
  }
  return null;
};

describe('webhook endpoint URLs', () => {
  it('takes absolute http(s) URLs only, without credentials', () => {
    expect(checkedEndpointUrl('https://hooks.example.com/in?x=1', false)).toBe('https://hooks.example.com/in?x=1');
    for (const bad of ['ftp://hooks.example.com/', 'hooks.example.com/in', 'javascript:alert(1)', 'https://u:p@hooks.example.com/']) expect(code(() => checkedEndpointUrl(bad, true)), bad).toBe('INVALID_WEBHOOK_URL');
  });

  it('refuses loopback, private and link-local addresses unless they are allowed', () => {
    for (const host of ['http://127.0.0.1:8080/', 'http://localhost/', 'http://10.1.2.3/', 'http://192.168.0.5/', 'http://172.20.0.1/', 'http://169.254.169.254/', 'http://[::1]/', 'http://[fd00::1]/', 'http://[::ffff:127.0.0.1]/']) {
      expect(code(() => checkedEndpointUrl(host, false)), host).toBe('INVALID_WEBHOOK_URL');
      expect(checkedEndpointUrl(host, true)).toBeTruthy();
    }
    expect(checkedEndpointUrl('http://93.184.216.34/', false)).toBe('http://93.184.216.34/');
  });

  it('refuses the special-purpose addresses of the newer ranges as literals: benchmarking, NAT64 and IPv4-compatible', () => {
    for (const host of ['http://198.18.0.1/', 'http://[64:ff9b::7f00:1]/', 'http://[::127.0.0.1]/', 'http://[2001:db8::1]/']) {
      expect(code(() => checkedEndpointUrl(host, false)), host).toBe('INVALID_WEBHOOK_URL');
    }
    expect(checkedEndpointUrl('http://[2606:4700::1111]/', false)).toBe('http://[2606:4700::1111]/');
  });
});

describe('webhook signatures', () => {
  it('sign id.timestamp.body with the key after whsec_ (the Standard Webhooks example)', () => {
    // The specification's own example: secret, id, timestamp and body, and the signature it gives.
    const headers = signedHeaders('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', new Date(1614265330 * 1000), '{"test": 2432232314}');
    expect(headers).toEqual({ 'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek', 'webhook-timestamp': '1614265330', 'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' });
  });

  it('sign with two secrets as two space-separated signatures, new first; a Standard Webhooks receiver verifies with either', () => {
    const [fresh, old, other] = ['fresh', 'old', 'other'].map((s) => `whsec_${Buffer.from(`${s} secret of thirty-two bytes.....`.slice(0, 32)).toString('base64')}`) as [string, string, string];
    const at = new Date();
    const body = '{"type":"webhook.ping"}';
    const headers = signedHeaders([fresh, old], 'msg_1', at, body);
    expect(headers['webhook-signature']).toBe(`${signedHeaders(fresh, 'msg_1', at, body)['webhook-signature']} ${signedHeaders(old, 'msg_1', at, body)['webhook-signature']}`);
    expect(new Webhook(fresh).verify(body, headers)).toEqual({ type: 'webhook.ping' });
    expect(new Webhook(old).verify(body, headers)).toEqual({ type: 'webhook.ping' });
    expect(() => new Webhook(other).verify(body, headers)).toThrow();
  });
});
