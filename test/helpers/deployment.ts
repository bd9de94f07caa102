import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { testEnv } from './env.js';
import { createTestDatabase } from './postgres.js';

/**
 * What the servers of one multi-replica (or split) deployment share in a test: a PostgreSQL database of
 * its own, the machine's Redis under a key prefix of its own, the machine's NATS, and one signing key.
 * Each server is started with `env` plus what is its own; `drop()` removes the database afterwards.
 */
export async function sharedDeployment(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const database = await createTestDatabase();
  return {
    env: {
      DATABASE_URL: database.url,
      REDIS_URL: testEnv.redisUrl,
      REDIS_KEY_PREFIX: `qa-test-${randomBytes(4).toString('hex')}:`,
      NATS_URL: testEnv.natsUrl,
      JWT_PRIVATE_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    },
    drop: () => database.drop(),
  };
}
