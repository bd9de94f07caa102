import { join } from 'node:path';
import type { Logger } from 'pino';
import { createTokenService, loadSecretBox, loadSigningKeys } from '#shared/auth/index.js';
import { PERSONAL_DATA } from '#events/personal-data.js';
import { migratePersonKeys, PersonalData, PersonKeys, sealingEventStore } from '#shared/pii/index.js';
import { createFsBlobStore, openS3BlobStore, signingKeyUrlSigner, type BlobStore } from '#shared/blob/index.js';
import { connectNatsBus, createMemoryBus } from '#shared/bus/index.js';
import type { MessageBus } from '#shared/bus/index.js';
import type { Config } from '#shared/config.js';
import { openPglite, openPostgres, type Database } from '#shared/db/index.js';
import { createSqlEventStore, migrateSqlEventStore } from '#shared/es/index.js';
import type { EventStore } from '#shared/es/index.js';
import { connectRedisKv, createSqlKv, withLocalFallback } from '#shared/kv/index.js';
import type { KeyValueStore } from '#shared/kv/index.js';
import { createLogger } from '#shared/logger.js';
import { createMailer } from '#shared/mail/mailer.js';
import { PublicAddress } from '#shared/public-address.js';
import type { Platform, ReadModelWaiter } from './platform.js';
import { checkpointWaiter, settleTimeoutMs } from './read-models.js';
import { tracedBlobStore, tracedEventStore } from '#shared/tracing/index.js';

/**
 * How often an embedded installation's subscriptions and projections look at the log unasked. Only this
 * process can open its PGlite, and its appends (and an erasure's moved checkpoints) wake them at once,
 * so the poll is a backstop, not how they learn of changes: a shorter one only spends an idle server's
 * CPU (docs/performance.md, "An idle embedded server").
 */
export const EMBEDDED_BACKSTOP_MS = 60_000;

/**
 * Opens every adapter the configuration names: PGlite under DATA_DIR, the in-process bus and a
 * durable SQL key-value store by default; PostgreSQL, KurrentDB, NATS and Redis when their URLs
 * are set. Each opened resource is closed by `close()`, newest first.
 */
export async function openPlatform(
  config: Config,
  options: { logger?: Logger; readModels?: ReadModelWaiter } = {},
): Promise<Platform & { close(): Promise<void> }> {
  const logger = options.logger ?? createLogger(config);
  const closers: (() => Promise<void>)[] = [];
  try {
    const db: Database = config.DATABASE_URL ? openPostgres(config.DATABASE_URL, { max: config.DATABASE_POOL_MAX }) : await openPglite(join(config.dataDir, 'pglite'), { sharedBuffers: config.PGLITE_SHARED_BUFFERS });
    closers.push(() => db.close());
    await db.query('SELECT 1');

    let store: EventStore;
    if (config.EVENTSTORE_URL) {
      // Loaded only here: its gRPC client costs a start about half a second and tens of megabytes.
      const { createKurrentEventStore } = await import('#shared/es-kurrent/index.js');
      store = createKurrentEventStore(config.EVENTSTORE_URL);
    } else {
      await migrateSqlEventStore(db);
      // PGlite belongs to this process, whose appends wake subscribers directly: polling is only a backstop.
      store = createSqlEventStore(db, {
        ...(config.DATABASE_URL ? { listenUrl: config.DATABASE_URL } : { pollIntervalMs: EMBEDDED_BACKSTOP_MS }),
        groupCommit: config.EVENT_STORE_GROUP_COMMIT,
      });
    }
    closers.push(() => store.close());
    // Personal data sealed with its person's key on the way in, opened (or read as erased) on the way out.
    const personKeys = new PersonKeys(db, loadSecretBox({ key: config.SECRETS_KEY, previousKeys: config.SECRETS_PREVIOUS_KEYS, dataDir: config.DATA_DIR }));
    await migratePersonKeys(db, () => store.headPosition());
    const resealed = await personKeys.sealAgain();
    if (resealed.unopened > 0) {
      logger.error({ unopened: resealed.unopened }, 'person keys sealed under a key this process does not have: their data cannot be read until every process runs with the same SECRETS_KEY');
    }
    store = sealingEventStore(store, new PersonalData(personKeys, PERSONAL_DATA));
    // Each append a span of the trace it is made in, when tracing is on (the store itself otherwise).
    store = tracedEventStore(store);

    let kv: KeyValueStore;
    if (config.REDIS_URL) kv = await connectRedisKv(config.REDIS_URL, { keyPrefix: config.REDIS_KEY_PREFIX });
    else kv = await createSqlKv(db);
    closers.push(() => kv.close());
    const counters = kv.kind === 'redis'
      ? withLocalFallback(kv, {
          onChange: (state, err) =>
            state === 'degraded'
              ? logger.warn({ err }, 'Redis unreachable: rate limits and throttles count in this process until it is back')
              : logger.info('Redis reachable again: rate limits and throttles count in Redis'),
        })
      : kv;
    closers.push(() => counters === kv ? Promise.resolve() : counters.close());

    let bus: MessageBus;
    if (config.NATS_URL) bus = await connectNatsBus(config.NATS_URL);
    else bus = createMemoryBus();
    closers.push(() => bus.close());

    const keys = await loadSigningKeys({
      alg: config.JWT_ALG,
      dataDir: config.dataDir,
      ...(config.JWT_PRIVATE_KEY ? { privateKeyPem: config.JWT_PRIVATE_KEY } : {}),
      ...(config.JWT_KEY_ID ? { keyId: config.JWT_KEY_ID } : {}),
      ...(config.JWT_EXTRA_JWKS ? { extraJwks: config.JWT_EXTRA_JWKS } : {}),
    });
    const tokens = createTokenService({ keys, issuer: config.JWT_ISSUER, accessTtlMs: config.ACCESS_TOKEN_TTL });
    const mailer = createMailer({ ...(config.SMTP_URL ? { smtpUrl: config.SMTP_URL } : {}), from: config.MAIL_FROM, logger, production: config.NODE_ENV === 'production' });
    closers.push(() => mailer.close());

    const platform: Platform = {
      config,
      logger,
      db,
      store,
      kv,
      counters,
      bus,
      keys,
      tokens,
      mailer,
      // Each call moving stored bytes a span of the trace it is made in, when tracing is on.
      blobs: tracedBlobStore(await openBlobStore(config, keys)),
      readModels: options.readModels ?? checkpointWaiter(db, { timeoutMs: settleTimeoutMs(config.PROJECTIONS_LEASE_TTL) }),
      publicAddress: new PublicAddress(config.APP_URL, config.HOST, config.PORT),
      now: () => new Date(),
    };
    return {
      ...platform,
      async close() {
        for (const close of closers.reverse()) {
          await close().catch((err: unknown) => logger.warn({ err }, 'closing a resource failed'));
        }
      },
    };
  } catch (err) {
    for (const close of closers.reverse()) await close().catch(() => {});
    throw err;
  }
}

/** The blob store the configuration names: files under DATA_DIR/blobs (URLs signed with the platform's key, served by the platform) or S3. */
async function openBlobStore(config: Config, keys: Awaited<ReturnType<typeof loadSigningKeys>>): Promise<BlobStore> {
  if (config.BLOB_STORE === 's3') {
    return openS3BlobStore({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      bucket: config.S3_BUCKET!,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      prefix: config.S3_PREFIX,
    });
  }
  return createFsBlobStore(join(config.dataDir, 'blobs'), { signer: signingKeyUrlSigner(keys) });
}
