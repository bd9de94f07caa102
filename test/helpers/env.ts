/**
 * Where the real services of the test machine are. Tests read them here only, so a run elsewhere can
 * point them at other loopback ports.
 */
export const testEnv = {
  postgresUrl: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  natsUrl: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222',
  eventstoreUrl: process.env.EVENTSTORE_URL || undefined,
};
