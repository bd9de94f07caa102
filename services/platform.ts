import type { Logger } from 'pino';
import type { SigningKeys, TokenService } from '#shared/auth/index.js';
import type { BlobStore } from '#shared/blob/index.js';
import type { MessageBus } from '#shared/bus/index.js';
import type { Config } from '#shared/config.js';
import type { Database } from '#shared/db/index.js';
import type { EventStore } from '#shared/es/index.js';
import type { KeyValueStore } from '#shared/kv/index.js';
import type { Mailer } from '#shared/mail/mailer.js';
import type { PublicAddress } from '#shared/public-address.js';
import type { ReadModelWaiter } from '#shared/es/index.js';

export type { ReadModelWaiter };

/** Everything a module needs from the outside world, opened once per process. */
export interface Platform {
  config: Config;
  logger: Logger;
  db: Database;
  store: EventStore;
  kv: KeyValueStore;
  /**
   * Counters that may be kept per process while the shared store is away (rate limits, throttles):
   * `kv` with an in-process fallback when it is Redis, `kv` itself otherwise.
   */
  counters: KeyValueStore;
  bus: MessageBus;
  keys: SigningKeys;
  tokens: TokenService;
  mailer: Mailer;
  blobs: BlobStore;
  readModels: ReadModelWaiter;
  /** Where links in mails and answers point: APP_URL, else the address this process listens on. */
  publicAddress: PublicAddress;
  now: () => Date;
  /** This process's id in the installation's list of processes (shared/processes/registry.ts), once it has recorded itself. */
  processId?: string;
}
