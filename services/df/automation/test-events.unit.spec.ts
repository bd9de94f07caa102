import { describe, expect, it } from 'vitest';
import { progressOf, TestEventsBody } from './test-events.js';

const e = (type: string, name: string, suite: string | null = 'S', metadata: Record<string, unknown> = {}) => ({ type, name, suite, metadata }) as Parameters<typeof progressOf>[0][number];

describe('progress', () => {
  it('is zero with no tests', () => {
    expect(progressOf([])).toEqual({ total: 0, started: 0, passed: 0, failed: 0, skipped: 0, running: 0, percent: 0 });
  });

  it('counts each test once by suite and name, its latest event deciding', () => {
    const p = progressOf([
      e('suite_started', 'S', null, { tests: 5 }),
      e('test_started', 'a'),
      e('test_failed', 'a'),
      e('test_started', 'a'),
      e('test_passed', 'a'),
      e('test_started', 'b'),
      e('test_skipped', 'c'),
      e('test_passed', 'a', 'Other suite'),
      e('suite_finished', 'S', null),
    ]);
    expect(p).toEqual({ total: 5, started: 4, passed: 2, failed: 0, skipped: 1, running: 1, percent: 60 });
  });

  it('takes the larger of the tests seen and the tests declared, and rounds down', () => {
    expect(progressOf([e('suite_started', 'S', null, { tests: 1 }), e('test_passed', 'a'), e('test_passed', 'b')]).total).toBe(2);
    expect(progressOf([e('suite_started', 'S', null, { tests: 3 }), e('test_passed', 'a')]).percent).toBe(33);
    expect(progressOf([e('suite_started', 'S', null, { tests: 'many' }), e('test_passed', 'a')]).total).toBe(1);
  });
});

describe('test event body', () => {
  it('accepts one event or 1..500, refuses the rest', () => {
    expect(TestEventsBody.safeParse({ type: 'test_passed', name: 'a' }).success).toBe(true);
    expect(TestEventsBody.safeParse([{ type: 'test_passed', name: 'a' }]).success).toBe(true);
    expect(TestEventsBody.safeParse([]).success).toBe(false);
    expect(TestEventsBody.safeParse(Array.from({ length: 501 }, () => ({ type: 'test_passed', name: 'a' }))).success).toBe(false);
    expect(TestEventsBody.safeParse({ type: 'test_passed', name: 'a', metadata: { big: 'x'.repeat(20_000) } }).success).toBe(false);
    expect(TestEventsBody.safeParse({ type: 'test_passed', name: 'a', timestamp: '2026-01-01T00:00:00+02:00' }).success).toBe(true);
  });
});
