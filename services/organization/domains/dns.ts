import { Resolver } from 'node:dns/promises';

/** The name and value a company publishes to prove a domain is its own. */
export function verificationRecord(domain: string, token: string): { type: 'dns-txt'; name: string; value: string } {
  return { type: 'dns-txt', name: `_qa-platform-verification.${domain}`, value: `qa-platform-verification=${token}` };
}

/** What the resolver answered for a TXT query: the records (each joined from its strings), or why there are none. */
export type TxtAnswer = { records: string[] } | { failure: string };

/** Resolver error codes as a person reads them; any other code is named as it is. */
const FAILURES: Record<string, string> = {
  ENOTFOUND: 'NXDOMAIN: the name does not exist',
  ENODATA: 'the name has no TXT record',
  ETIMEOUT: 'no answer in time (timeout)',
  ESERVFAIL: 'SERVFAIL: the DNS server failed to answer',
  EREFUSED: 'REFUSED: the DNS server refused the query',
  ECONNREFUSED: 'the DNS server could not be reached',
};

/** Asks the resolvers (`servers`, the system's when undefined) for the TXT records of `name`. */
export async function lookUpTxt(servers: readonly string[] | undefined, name: string, timeoutMs = 3_000): Promise<TxtAnswer> {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers) resolver.setServers([...servers]);
  try {
    return { records: (await resolver.resolveTxt(name)).map((chunks) => chunks.join('')) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unknown';
    return { failure: FAILURES[code] ?? `the lookup failed (${code})` };
  }
}

const MAX_SHOWN = 5;
const shown = (record: string) => JSON.stringify(record.length > 120 ? `${record.slice(0, 120)}…` : record);

/**
 * Whether the answer holds exactly `value`; if not, what the resolver saw, to say why (the records it
 * found, a few and cut short, or the failure) and nothing about the resolvers themselves.
 */
export function txtVerdict(answer: TxtAnswer, name: string, value: string): { ok: true } | { ok: false; saw: string } {
  if ('failure' in answer) return { ok: false, saw: `${name}: ${answer.failure}` };
  if (answer.records.includes(value)) return { ok: true };
  if (answer.records.length === 0) return { ok: false, saw: `${name}: the name has no TXT record` };
  const more = answer.records.length > MAX_SHOWN ? ` and ${answer.records.length - MAX_SHOWN} more` : '';
  return { ok: false, saw: `${name} has TXT ${answer.records.slice(0, MAX_SHOWN).map(shown).join(', ')}${more}, none of them the verification value` };
}
