import { randomToken } from '#shared/auth/index.js';
import { loadConfig } from '#shared/config.js';
import { aggregate } from '#shared/es/index.js';
import { commandContext } from '#shared/es/index.js';
import { createLogger } from '#shared/logger.js';
import { DOMAIN_NAME, domainStream } from '#events/organization/domains.js';
import { listDomains, type DomainRow } from '#projections/org-domains/index.js';
import { openPlatform } from '../../open-platform.js';
import { runOperatorCli } from '../../operator-cli.js';
import { companyStream } from '../companies/index.js';
import { domainDecider } from './decide.js';

/**
 * `npm run domains -- verify <domain> --company <id>`: an operator verifies an e-mail domain for a company
 * without DNS (a domain whose records the company cannot publish, an installation without a resolver), as
 * the installation (no actor). `npm run domains -- list [--company <id>]` lists domains as the read model
 * has them. Opens the platform's store from the same configuration as `npm start`; with the embedded
 * database the platform must be stopped first.
 */
const USAGE = 'usage: npm run domains -- verify <domain> --company <id>\n       npm run domains -- list [--company <id>]\n';

/** The positional words and the `--company` value of the command line. */
function parse(argv: readonly string[]): { words: string[]; companyId: number | null } | null {
  const words: string[] = [];
  let companyId: number | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') continue;
    if (arg === '--company') {
      const value = Number(argv[++i]);
      if (!Number.isSafeInteger(value) || value <= 0) return null;
      companyId = value;
    } else words.push(arg);
  }
  return { words, companyId };
}

const describe = (d: DomainRow) => `${d.domain}\tcompany ${d.companyId}\t${d.verifiedAt ? `verified ${d.verifiedAt} (${d.verifiedBy})` : 'claimed, not verified'}`;

async function main(): Promise<number> {
  const args = parse(process.argv.slice(2));
  const [command, name, ...rest] = args?.words ?? [];
  const domain = name?.trim().toLowerCase().replace(/\.$/, '');
  const verify = command === 'verify' && domain !== undefined && DOMAIN_NAME.test(domain) && args?.companyId != null && rest.length === 0;
  const list = command === 'list' && name === undefined;
  if (!args || (!verify && !list)) {
    process.stderr.write(USAGE);
    return 2;
  }
  const platform = await openPlatform(loadConfig(), { logger: createLogger({ LOG_LEVEL: 'warn' }) });
  try {
    if (list) {
      const rows = await listDomains(platform.db, args.companyId);
      process.stdout.write(rows.length > 0 ? `${rows.map(describe).join('\n')}\n` : 'no domains\n');
      return 0;
    }
    const companyId = args.companyId!;
    if ((await platform.store.readStream(companyStream(companyId))).length === 0) {
      process.stderr.write(`company ${companyId} does not exist\n`);
      return 1;
    }
    // As the installation: no actor, in the company's name (its audit shows the operator's verification).
    const ctx = commandContext(platform, { companyId });
    // Nothing reads its own write here: the projections of a running platform catch up on their own.
    const domains = aggregate(platform, { decider: domainDecider, stream: domainStream, readModels: [] });
    const claimed = await domains.run(domain!, { type: 'ClaimDomain', domain: domain!, companyId, token: randomToken(32) }, ctx, { settle: false });
    const verified = await domains.run(domain!, { type: 'VerifyDomain', domain: domain!, companyId, proof: { method: 'operator' } }, ctx, { settle: false });
    const did = [claimed.events.length > 0 ? 'claimed' : null, verified.events.length > 0 ? 'verified' : null].filter(Boolean).join(' and ');
    process.stdout.write(did ? `${domain}: ${did} for company ${companyId} by the operator\n` : `${domain}: already verified for company ${companyId}; nothing changed\n`);
    return 0;
  } finally {
    await platform.close();
  }
}

runOperatorCli(main, 'Stop the platform first, or use a PostgreSQL database (DATABASE_URL) that a running platform shares.');
