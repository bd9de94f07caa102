import type { Sql } from '#shared/db/index.js';
import { testHistoryRows, type TestHistoryRow } from '#projections/df-test-runs/index.js';
import type { WorkspaceScope } from '#projections/queries.js';
import { testKey, type History, type TestHistory } from './plan.js';

/** Earlier runs a test's history is read from. */
export const HISTORY_RUNS = 20;

/** Rows of the read model as the planner's history: each test's mean duration and pass rate. */
export const historyOf = (rows: readonly TestHistoryRow[]): History =>
  new Map(rows.filter((r) => r.attempts > 0).map((r): [string, TestHistory] => [testKey(r), { meanMs: r.meanMs, passRate: r.passes / r.attempts }]));

/**
 * What this platform's own earlier runs say of each test of a test APK: its expected duration and pass
 * rate, from the last runs of the same package in the same workspace (another workspace's runs,
 * maybe of another build of the app, say nothing here).
 */
export async function testHistory(db: Sql, scope: WorkspaceScope, testPackage: string, runs = HISTORY_RUNS): Promise<History> {
  return historyOf(await testHistoryRows(db, scope, testPackage, runs));
}
