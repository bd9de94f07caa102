import { describe, expect, it } from 'vitest';
import { txtVerdict, verificationRecord } from './dns.js';

describe('domain verification record', () => {
  const { name, value } = verificationRecord('acme.test', 'tok123');

  it('names the record under the domain and holds the token', () => {
    expect(name).toBe('_qa-platform-verification.acme.test');
    expect(value).toBe('qa-platform-verification=tok123');
  });

  it('accepts an answer holding exactly the value among others', () => {
    expect(txtVerdict({ records: ['v=spf1 -all', value] }, name, value)).toEqual({ ok: true });
  });

  it('refuses a near value, naming what was found', () => {
    const verdict = txtVerdict({ records: [`${value} `, 'qa-platform-verification=other'] }, name, value);
    expect(verdict).toEqual({ ok: false, saw: `${name} has TXT "qa-platform-verification=tok123 ", "qa-platform-verification=other", none of them the verification value` });
  });

  it('says NXDOMAIN or a timeout as the resolver failed, and caps what it shows of many records', () => {
    expect(txtVerdict({ failure: 'NXDOMAIN: the name does not exist' }, name, value)).toEqual({ ok: false, saw: `${name}: NXDOMAIN: the name does not exist` });
    const many = txtVerdict({ records: Array.from({ length: 8 }, (_, i) => `r${i}${'x'.repeat(200)}`) }, name, value);
    expect(many.ok).toBe(false);
    expect(!many.ok && many.saw).toMatch(/and 3 more, none/);
    expect(!many.ok && many.saw.length).toBeLessThan(900);
  });
});
