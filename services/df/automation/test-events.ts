import { z } from 'zod';
import type { Database } from '#shared/db/index.js';
import type { Page } from '#shared/paging.js';
import { testEventActivities, testEventDetails, type ActivityDetail } from '#projections/df-sessions/index.js';

export const TEST_EVENT_TYPES = ['suite_started', 'test_started', 'test_passed', 'test_failed', 'test_skipped', 'suite_finished'] as const;
export type TestEventType = (typeof TEST_EVENT_TYPES)[number];

const Metadata = z.record(z.string(), z.unknown()).refine((m) => JSON.stringify(m).length <= 16_384, 'metadata is limited to 16 KiB of JSON');

/** One event a test runner reports ("Automation" in docs/modules/device-testing.md). */
export const TestEventInput = z.object({
  type: z.enum(TEST_EVENT_TYPES),
  /** The test's name (the suite's for suite events). */
  name: z.string().trim().min(1).max(500),
  suite: z.string().trim().min(1).max(500).optional(),
  durationMs: z.number().int().min(0).max(7 * 86_400_000).optional(),
  error: z.object({ message: z.string().max(10_000), stack: z.string().max(50_000).optional() }).optional(),
  /** When it happened on the runner (ISO 8601); the time of reporting when absent. */
  timestamp: z.iso.datetime({ offset: true }).optional(),
  /** Free-form; on `suite_started`, `metadata.tests` declares how many tests the suite will run. */
  metadata: Metadata.optional(),
});
export type TestEventInput = z.infer<typeof TestEventInput>;

/** One event or a batch of at most 500. */
export const TestEventsBody = z.union([TestEventInput, z.array(TestEventInput).min(1).max(500)]);

export const TestEventView = z
  .object({
    id: z.string(),
    type: z.enum(TEST_EVENT_TYPES),
    name: z.string(),
    suite: z.string().nullable(),
    durationMs: z.number().nullable(),
    error: z.object({ message: z.string(), stack: z.string().optional() }).nullable(),
    timestamp: z.string(),
    metadata: z.record(z.string(), z.unknown()),
    reportedAt: z.string(),
  })
  .meta({ id: 'DfTestEvent' });
export type TestEventView = z.infer<typeof TestEventView>;

export const Progress = z
  .object({
    total: z.number().int(),
    started: z.number().int(),
    passed: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
    running: z.number().int(),
    percent: z.number().int(),
  })
  .meta({ id: 'DfTestProgress' });
export type Progress = z.infer<typeof Progress>;

/**
 * How a test event is kept: a timeline entry (`DeviceSessionActivityRecorded`, kind `custom`) of the
 * session with `source: "automation"`, so it shows on the session's timeline and in its replay.
 */
export function activityDetail(event: TestEventInput, reportedAt: Date): Record<string, unknown> {
  return {
    source: 'automation',
    type: event.type,
    name: event.name,
    suite: event.suite ?? null,
    durationMs: event.durationMs ?? null,
    error: event.error ?? null,
    timestamp: event.timestamp ? new Date(event.timestamp).toISOString() : reportedAt.toISOString(),
    metadata: event.metadata ?? {},
  };
}

function toView({ activityId, detail: d, at }: ActivityDetail): TestEventView {
  return {
    id: activityId,
    type: d.type as TestEventType,
    name: String(d.name),
    suite: (d.suite as string | null) ?? null,
    durationMs: (d.durationMs as number | null) ?? null,
    error: (d.error as TestEventView['error']) ?? null,
    timestamp: String(d.timestamp),
    metadata: (d.metadata as Record<string, unknown>) ?? {},
    reportedAt: at,
  };
}

/** A page of a session's test events in reporting order, optionally of some types (read model `df-sessions`). */
export async function listTestEvents(db: Database, sessionId: string, paging: { page: number; size: number; sortDir?: 'asc' | 'desc' | undefined }, types?: string[]): Promise<Page<TestEventView>> {
  const { rows, total: totalElements } = await testEventActivities(db, sessionId, paging, types);
  return { content: rows.map(toView), page: paging.page, size: paging.size, totalElements, totalPages: Math.ceil(totalElements / paging.size) };
}

/**
 * Execution progress, counted by test (suite and name): the latest event of a test decides its state,
 * so a retried test counts once, with its last result.
 *
 * - `passed` / `failed` / `skipped`: tests whose latest event is that result;
 * - `running`: tests whose latest event is `test_started`;
 * - `started`: tests with any event (started or finished) = passed + failed + skipped + running;
 * - `total`: the larger of `started` and the tests the suites declared (`metadata.tests` on
 *   `suite_started`, summed over distinct suites);
 * - `percent`: finished tests (passed + failed + skipped) of `total`, rounded down; 0 with no tests.
 */
export function progressOf(events: readonly Pick<TestEventView, 'type' | 'name' | 'suite' | 'metadata'>[]): Progress {
  const latest = new Map<string, TestEventType>();
  const declared = new Map<string, number>();
  for (const e of events) {
    if (e.type === 'suite_started') {
      const n = e.metadata.tests;
      if (typeof n === 'number' && Number.isInteger(n) && n >= 0) declared.set(e.name, n);
      continue;
    }
    if (e.type === 'suite_finished') continue;
    latest.set(JSON.stringify([e.suite ?? '', e.name]), e.type);
  }
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let running = 0;
  for (const state of latest.values()) {
    if (state === 'test_passed') passed += 1;
    else if (state === 'test_failed') failed += 1;
    else if (state === 'test_skipped') skipped += 1;
    else running += 1;
  }
  const started = latest.size;
  let expected = 0;
  for (const n of declared.values()) expected += n;
  const total = Math.max(started, expected);
  const finished = passed + failed + skipped;
  return { total, started, passed, failed, skipped, running, percent: total === 0 ? 0 : Math.floor((finished * 100) / total) };
}

/** Every test event of a session, for the progress (only the fields it needs). */
export async function allTestEvents(db: Database, sessionId: string): Promise<Pick<TestEventView, 'type' | 'name' | 'suite' | 'metadata'>[]> {
  return (await testEventDetails(db, sessionId)).map((d) => ({ type: d.type as TestEventType, name: String(d.name), suite: (d.suite as string | null) ?? null, metadata: (d.metadata as Record<string, unknown>) ?? {} }));
}
