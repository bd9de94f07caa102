import { getEventListeners } from 'node:events';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Database } from '#shared/db/index.js';
import { enrolLocalHost } from './local-host.js';

describe('the in-process device host while no company exists', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openPglite();
    // The directory's table of companies, empty: the host keeps looking.
    await db.query('CREATE TABLE org_companies (id bigint)');
  });
  afterAll(() => db.close());

  it('holds at most one abort listener however often it looks, and answers null once aborted', async () => {
    const abort = new AbortController();
    let looks = 0;
    let lookedOften!: () => void;
    const often = new Promise<void>((resolve) => (lookedOften = resolve));
    const counted: Database = {
      ...db,
      query: (async (text: string, params?: unknown[]) => {
        const result = await db.query(text, params);
        if (++looks === 20) lookedOften();
        return result;
      }) as Database['query'],
    };
    const waiting = enrolLocalHost({
      db: counted,
      config: { BOOTSTRAP_ADMIN_EMAIL: undefined },
      // Never reached: there is no company to enrol into.
      enrolments: {} as never,
      hostId: 'host-1',
      name: 'host-1',
      logger: pino({ level: 'silent' }),
      now: () => new Date(),
      signal: abort.signal,
      pollMs: 1,
    });
    await often;
    expect(getEventListeners(abort.signal, 'abort').length).toBeLessThanOrEqual(1);
    abort.abort();
    await expect(waiting).resolves.toBeNull();
    expect(getEventListeners(abort.signal, 'abort')).toHaveLength(0);
  });
});
