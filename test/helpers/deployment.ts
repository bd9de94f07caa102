import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { startNatsServer } from './daemon.js';
import { testEnv } from './env.js';
import { createTestDatabase } from './postgres.js';

/**
 * What the servers of one multi-replica (or split) deployment share in a test: a PostgreSQL database of
 * its own, the machine's Redis under a key prefix of its own, a nats-server of its own, and one signing
 * key. Each server is started with `env` plus what is its own; `drop()` removes the database and stops
 * the nats-server afterwards.
 *
 * NATS is the deployment's own, not the machine's: the device module's replicas share one queue group
 * on the agents' fixed subjects (`df.agent.*.hello`, ...), so two deployments on one NATS server (two
 * test files running at once) would take each other's hosts.
 */
export async function sharedDeployment(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const nats = await startNatsServer();
  const database = await createTestDatabase().catch(async (err: unknown) => {
    await nats.stop();
    throw err;
  });
  return {
    env: {
      DATABASE_URL: database.url,
      REDIS_URL: testEnv.redisUrl,
      REDIS_KEY_PREFIX: `qa-test-${randomBytes(4).toString('hex')}:`,
      NATS_URL: nats.url,
      JWT_PRIVATE_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      // One sealing key for every process, as for the signing key: each has a data directory of its own.
      SECRETS_KEY: randomBytes(32).toString('base64'),
    },
    drop: async () => {
      await nats.stop();
      await database.drop();
    },
  };
}
