import { parseArgs } from 'node:util';
import { randomToken } from '#shared/auth/index.js';
import { natsSiteUser, natsSiteUserEntry } from '#shared/wire/index.js';
import { hostIdOfToken } from '#shared/wire/index.js';

/**
 * `npm run nats:site-user -- <site> <hostId | host token>... [--password <password>]`: prints the hub's
 * users entry for the leaf node of a site (its link may carry only those hosts' subjects) and the
 * NATS_HUB_URL the site's nats-server links with. Without a password a random one is made; give the
 * site's password again when its hosts change. See docs/operations.md, "Sites behind a NATS leaf node".
 */
const usage = 'usage: npm run nats:site-user -- <site> <hostId | dfh_ host token>... [--password <password>]\n';
let parsed: ReturnType<typeof parseArgs<{ options: { password: { type: 'string' } }; allowPositionals: true }>>;
try {
  parsed = parseArgs({ options: { password: { type: 'string' } }, allowPositionals: true });
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n${usage}`);
  process.exit(2);
}
const [site, ...hosts] = parsed.positionals;
if (!site || hosts.length === 0) {
  process.stderr.write(usage);
  process.exit(2);
}
const password = parsed.values.password ?? randomToken(24);
try {
  const entry = natsSiteUserEntry(site, password, hosts.map((h) => hostIdOfToken(h) ?? h));
  process.stdout.write(
    `# On the hub: add to the users list of deploy/nats/authorization.conf (replacing the site's former entry), then reload nats-server:\n${entry}\n\n` +
      `# The site's nats-server (deploy/nats/site/nats-server.conf) links to the hub with:\nNATS_HUB_URL=tls://${natsSiteUser(site)}:${encodeURIComponent(password)}@<hub address>:7422\n`,
  );
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(2);
}
