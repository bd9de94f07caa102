import { randomToken } from '#shared/auth/index.js';
import { natsHostUser, natsHostUserEntry } from '#shared/wire/index.js';
import { hostIdOfToken } from '#shared/wire/index.js';

/**
 * `npm run nats:host-user -- <hostId | host token> [password]`: prints the nats-server users entry that
 * limits an enrolled host's NATS connection to its own subjects, and the NATS_URL its agent uses.
 * Without a password a random one is made. See docs/operations.md, "NATS authorisation".
 */
const [given, password = randomToken(24)] = process.argv.slice(2);
if (!given) {
  process.stderr.write('usage: npm run nats:host-user -- <hostId | dfh_ host token> [password]\n');
  process.exit(2);
}
const hostId = hostIdOfToken(given) ?? given;
try {
  const entry = natsHostUserEntry(hostId, password);
  process.stdout.write(
    `# Add to the users list of deploy/nats/authorization.conf (deploy/nats/site/authorization.conf for a host in a site behind a leaf node), then reload nats-server (nats-server --signal reload):\n${entry}\n\n` +
      `# The agent of host ${hostId} connects with:\nNATS_URL=nats://${natsHostUser(hostId)}:${encodeURIComponent(password)}@<nats-host>:4222\n`,
  );
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(2);
}
