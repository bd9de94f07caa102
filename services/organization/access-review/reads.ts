import { z } from 'zod';
import type { Sql } from '#shared/db/index.js';
import type { PersonalData } from '#shared/pii/index.js';
import { AppError } from '#shared/errors.js';
import { companyChain } from '../audit/index.js';
import { ACCESS_EVENT_TYPES, applyAccessEvent, emptyAccessState, type AccessState } from './fold.js';
import { reviewWorkspace, type AccessReview } from './review.js';

/** Events fetched a round trip: the company's history is read in one ordered pass, page by page. */
const PAGE = 50_000;

type Page = { last: string | null; n: number; events: string | null };

/**
 * `metadata.occurredAt` not after `$4` (`at` as `toISOString()` writes it). The platform writes every
 * `occurredAt` that way, and two such texts compare as their times do (byte-wise, `COLLATE "C"`), so
 * those are compared as text; any other form is read as a time. Casting every event's time cost PGlite
 * 150 ms per 50,000 events, the text comparison almost nothing.
 */
const NOT_AFTER = `(CASE WHEN metadata->>'occurredAt' LIKE '____-__-__T__:__:__.___Z'
  THEN (metadata->>'occurredAt') COLLATE "C" <= $4::text COLLATE "C"
  ELSE (metadata->>'occurredAt')::timestamptz <= $4::timestamptz END)`;

/**
 * The company's state at `at`: its events of the access types whose time (`metadata.occurredAt`, the
 * platform's clock when they were decided) is not after `at`, in the order of the company's chain, folded.
 * One ordered read of the chain (its `(chain, chain_seq)` index), in keyset pages; no query per event.
 * Each page comes back as one JSON text (`json_agg`) parsed at once: a row per event costs PGlite more
 * than twice as much.
 */
export async function accessStateAt(db: Sql, companyId: number, at: Date, pageSize = PAGE, data?: PersonalData): Promise<AccessState> {
  const state = emptyAccessState(companyId);
  const chain = companyChain(companyId);
  let after = '0';
  for (;;) {
    const { rows } = await db.query<Page>(
      `SELECT max(seq)::text AS last, count(*)::int AS n, json_agg(json_build_array(type, payload) ORDER BY seq)::text AS events
         FROM (SELECT chain_seq AS seq, type, payload FROM es_events
                WHERE chain = $1 AND chain_seq > $2::bigint AND type = ANY($3::text[]) AND ${NOT_AFTER}
                ORDER BY chain_seq LIMIT $5::int) e`,
      [chain, after, [...ACCESS_EVENT_TYPES], at.toISOString(), pageSize],
    );
    const page = rows[0];
    if (!page || page.events === null || page.last === null) return state;
    const events = (JSON.parse(page.events) as [string, Record<string, unknown>][]).map(([type, payload]) => ({ type, payload, metadata: { occurredAt: '' } }));
    // Names and addresses are stored sealed (shared/pii): opened here, or read as an erased person's.
    for (const e of data ? await data.open(events) : events) applyAccessEvent(state, e);
    if (Number(page.n) < pageSize) return state;
    after = page.last;
  }
}

const isoTime = z.iso.datetime({ offset: true });
const isoDate = z.iso.date();

/**
 * `at` as a query gives it: an ISO 8601 time with its zone, or a date (its midnight UTC); absent is now.
 * Anything else (a time without a zone, 2026-02-30) is 400 VALIDATION_FAILED; later than now 400 AT_IN_FUTURE.
 */
export function reviewTime(text: string | undefined, now: Date): Date {
  if (text === undefined) return now;
  const at = isoTime.safeParse(text).success || isoDate.safeParse(text).success ? new Date(text) : new Date(Number.NaN);
  if (Number.isNaN(at.getTime())) {
    throw new AppError('VALIDATION_FAILED', 'at: an ISO 8601 time (2026-11-01T12:00:00Z) or a date', { details: [{ path: 'query.at', message: 'not an ISO 8601 time' }] });
  }
  if (at.getTime() > now.getTime()) throw new AppError('AT_IN_FUTURE', `at: ${text} is in the future (now is ${now.toISOString()})`, { details: [{ path: 'query.at', message: 'in the future' }] });
  return at;
}

/** The review of a workspace of the company at `at`; 404 for a workspace that was not the company's then. */
export async function accessReviewAt(db: Sql, companyId: number, workspaceId: number, at: Date, permissionKey?: string, data?: PersonalData): Promise<AccessReview> {
  const review = reviewWorkspace(await accessStateAt(db, companyId, at, PAGE, data), workspaceId, permissionKey);
  if (!review) throw new AppError('NOT_FOUND', 'Workspace not found (at that time)');
  return review;
}
