import { loadConfig } from '#shared/config.js';
import { createLogger } from '#shared/logger.js';
import { openPlatform } from '../../open-platform.js';
import { runOperatorCli } from '../../operator-cli.js';
import { AuditChain } from './chain-service.js';

/**
 * `npm run audit:keys -- list`: the installation's checkpoint signing keys (id, made, retired).
 * `npm run audit:keys -- rotate`: first signs a checkpoint of every chain's head with the key that signs
 * now (what happened until the rotation is covered by it), then retires that key and makes a new one,
 * which signs from then on. Every key stays published (`GET /api/v1/audit/keys`, bundles), so
 * checkpoints signed before keep verifying. Opens the platform's store from the same configuration as
 * `npm start` (SECRETS_KEY included: the private keys are sealed under it); with the embedded database
 * the platform must be stopped first. Processes that are running follow the rotation at their next pass.
 */
const USAGE = 'usage: npm run audit:keys -- list\n       npm run audit:keys -- rotate\n';

async function main(): Promise<number> {
  const words = process.argv.slice(2).filter((a) => a !== '--');
  const [command, ...rest] = words;
  if ((command !== 'list' && command !== 'rotate') || rest.length > 0) {
    process.stderr.write(USAGE);
    return 2;
  }
  const platform = await openPlatform(loadConfig(), { logger: createLogger({ LOG_LEVEL: 'warn' }) });
  try {
    const chain = new AuditChain(platform);
    await chain.ready();
    if (command === 'rotate') {
      const before = (await chain.keys.current()).keyId;
      const signed = await chain.checkpoints.pass(true);
      const made = await chain.keys.rotate();
      process.stdout.write(`${signed} checkpoint(s) signed with ${before}, now retired; checkpoints are signed with ${made} from now on\n`);
    }
    for (const key of await chain.keys.list()) {
      process.stdout.write(`${key.keyId}\tmade ${key.createdAt}\t${key.retiredAt ? `retired ${key.retiredAt}` : 'signing'}\n`);
    }
    return 0;
  } finally {
    await platform.close();
  }
}

runOperatorCli(main, 'Stop the platform first, or use a PostgreSQL database (DATABASE_URL) that a running platform shares.');
