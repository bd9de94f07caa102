/*
 * Access reviews as of a date (GET /api/v1/access-review): a company whose history holds 100,000 events
 * that change access — people invited and activated, roles and their keys, teams and their members,
 * workspace grants and member roles, spread over 100 days — then the review of one workspace folded from
 * that history (accessReviewAt: the company's chain read in order up to `at`, folded in memory), at a past
 * moment in the middle of the history and at its end (every event read), median of several runs.
 */
import { AccessReviewSchema, accessReviewAt, reviewCsv } from '#services/organization/access-review/index.js';
import type { NewEvent } from '#shared/es/index.js';
import { note, num, phase, table } from './console.js';
import { openPgliteStore, openPostgresStore, type BenchStore } from './stores.js';

export interface AccessReviewBenchOptions {
  backends: readonly BenchStore['name'][];
  events: number;
  users: number;
  roles: number;
  teams: number;
  workspaces: number;
  days: number;
  /** Events per append in the churn (one aggregate's stream each). */
  batch: number;
  runs: number;
}

export interface AccessReviewBenchReport {
  store: BenchStore['name'];
  events: number;
  seedSeconds: number;
  /** Where the review looks: the events its read folds, first (cold) run and median of the others, ms. */
  moments: { label: string; eventsFolded: number; firstMs: number; medianMs: number; minMs: number; maxMs: number; people: number; jsonMs: number; csvMs: number }[];
}

const COMPANY = 1;
const DAY = 86_400_000;
const KEYS = ['TMT_READ', 'TMT_WRITE', 'TMT_DELETE', 'AUDIT_READ', 'USER_READ', 'WORKSPACE_READ', 'df:session:create', 'df:device:read'];

/** A small seeded generator (mulberry32): the same history every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Pending = { stream: string; events: { type: string; payload: Record<string, unknown> }[] };

/** The setup (roles, workspaces, teams, people) and then churn batches until `events` in all. */
function* history(o: AccessReviewBenchOptions): Generator<Pending> {
  const rnd = random(20_261_129);
  const pick = (n: number) => 1 + Math.floor(rnd() * n);
  const keys = () => KEYS.filter(() => rnd() < 0.4);
  const roles = Array.from({ length: o.roles }, (_, i) => ({ type: 'RoleCreated', payload: { roleId: i + 1, companyId: COMPANY, name: `Role ${i + 1}`, description: '', permissions: keys(), builtIn: false } }));
  for (const e of roles) yield { stream: `role-${e.payload.roleId}`, events: [e] };
  for (let w = 1; w <= o.workspaces; w++) yield { stream: `workspace-${w}`, events: [{ type: 'WorkspaceCreated', payload: { workspaceId: w, companyId: COMPANY, name: `WS ${w}`, description: '', settings: {}, modules: [] } }] };
  for (let t = 1; t <= o.teams; t++) yield { stream: `team-${t}`, events: [{ type: 'TeamCreated', payload: { teamId: t, companyId: COMPANY, name: `Team ${t}`, description: '' } }] };
  for (let u = 1; u <= o.users; u++) {
    yield {
      stream: `user-${u}`,
      events: [
        { type: 'UserInvited', payload: { userId: u, companyId: COMPANY, email: `u${u}@bench.test`, username: `u${u}`, roleIds: [pick(o.roles)], invitedBy: 1 } },
        { type: 'UserActivated', payload: { userId: u, name: `User ${u}`, passwordHash: 'x' } },
      ],
    };
  }
  const churn: (() => Pending)[] = [
    () => {
      const teamId = pick(o.teams);
      return { stream: `team-${teamId}`, events: Array.from({ length: o.batch }, () => ({ type: rnd() < 0.6 ? 'TeamMemberAdded' : 'TeamMemberRemoved', payload: { teamId, userId: pick(o.users) } })) };
    },
    () => {
      const workspaceId = pick(o.workspaces);
      const grant = () => (rnd() < 0.5 ? { kind: 'team', teamId: pick(o.teams) } : { kind: 'user', userId: pick(o.users) });
      const member = () =>
        rnd() < 0.5
          ? { type: 'WorkspaceMemberRolesAssigned', payload: { workspaceId, userId: pick(o.users), roleIds: [pick(o.roles)] } }
          : { type: 'WorkspaceMemberRoleRemoved', payload: { workspaceId, userId: pick(o.users), roleId: pick(o.roles) } };
      return {
        stream: `workspace-${workspaceId}`,
        events: Array.from({ length: o.batch }, () =>
          rnd() < 0.6 ? { type: rnd() < 0.6 ? 'WorkspaceAccessGranted' : 'WorkspaceAccessRevoked', payload: { workspaceId, grantee: grant() } } : member(),
        ),
      };
    },
    () => {
      const userId = pick(o.users);
      const event = () =>
        rnd() < 0.8 ? { type: 'UserRolesReplaced', payload: { userId, roleIds: [pick(o.roles), pick(o.roles)] } } : { type: rnd() < 0.5 ? 'UserDeactivated' : 'UserReactivated', payload: { userId } };
      return { stream: `user-${userId}`, events: Array.from({ length: o.batch }, event) };
    },
    () => {
      const roleId = pick(o.roles);
      return { stream: `role-${roleId}`, events: Array.from({ length: o.batch }, () => ({ type: 'RoleUpdated', payload: { roleId, permissions: keys() } })) };
    },
  ];
  const setup = o.roles + o.workspaces + o.teams + 2 * o.users;
  // Of the churn: 40 % team members, 35 % workspace grants and member roles, 15 % people's roles and status, 10 % roles' keys.
  for (let written = setup; written < o.events; written += o.batch) {
    const r = rnd();
    yield churn[r < 0.4 ? 0 : r < 0.75 ? 1 : r < 0.9 ? 2 : 3]!();
  }
}

/** Appends the history, each event's time its share of `days` ending a day ago; answers the times of the events. */
async function seed(target: BenchStore, o: AccessReviewBenchOptions): Promise<Date[]> {
  const start = Date.now() - (o.days + 1) * DAY;
  const step = (o.days * DAY) / o.events;
  const times: Date[] = [];
  const ticker = phase(`${target.name}: appending ${num(o.events)} events`, () => times.length / o.events);
  for (const { stream, events } of history(o)) {
    const batch: NewEvent[] = events.map((e) => {
      const at = new Date(start + times.length * step);
      times.push(at);
      return { type: e.type, payload: e.payload, metadata: { actorId: 1, companyId: COMPANY, occurredAt: at.toISOString() } };
    });
    await target.store.append(stream, batch, 'any');
  }
  ticker.done(`${num(times.length)} events`);
  return times;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timeReview(target: BenchStore, at: Date, runs: number) {
  const ms: number[] = [];
  const jsonMs: number[] = [];
  const csvMs: number[] = [];
  let people = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const review = await accessReviewAt(target.db, COMPANY, 1, at, 'TMT_WRITE');
    ms.push(performance.now() - started);
    people = review.people.length;
    // What the route adds: the answer checked against its schema and written as JSON (the zod serializer), or as CSV.
    const answer = { at: at.toISOString(), ...review };
    const json = performance.now();
    JSON.stringify(AccessReviewSchema.parse(answer));
    const csv = performance.now();
    reviewCsv(answer);
    jsonMs.push(csv - json);
    csvMs.push(performance.now() - csv);
  }
  const rest = ms.slice(1).sort((a, b) => a - b);
  return { firstMs: ms[0]!, medianMs: median(rest), minMs: rest[0]!, maxMs: rest[rest.length - 1]!, people, jsonMs: median(jsonMs.slice(1)), csvMs: median(csvMs.slice(1)) };
}

async function measureOne(name: BenchStore['name'], o: AccessReviewBenchOptions): Promise<AccessReviewBenchReport> {
  const target = await (name === 'PostgreSQL' ? openPostgresStore() : openPgliteStore());
  try {
    const started = performance.now();
    const times = await seed(target, o);
    const seedSeconds = (performance.now() - started) / 1000;
    const moments: AccessReviewBenchReport['moments'] = [];
    for (const [label, index] of [['middle of the history', Math.floor(times.length / 2) - 1], ['end of the history', times.length - 1]] as const) {
      const ticker = phase(`${name}: review at the ${label}, ${o.runs} runs`);
      const t = await timeReview(target, times[index]!, o.runs);
      ticker.done(`median ${num(t.medianMs)} ms`);
      moments.push({ label, eventsFolded: index + 1, ...t });
    }
    return { store: name, events: times.length, seedSeconds, moments };
  } finally {
    await target.dispose();
  }
}

export async function measureAccessReview(o: AccessReviewBenchOptions): Promise<AccessReviewBenchReport[]> {
  const reports: AccessReviewBenchReport[] = [];
  for (const name of o.backends) reports.push(await measureOne(name, o));
  return reports;
}

export function formatAccessReview(reports: readonly AccessReviewBenchReport[], o: AccessReviewBenchOptions, goalMs: number): string {
  note(`goal: an access review as of a date over ${num(o.events)} events under ${num(goalMs)} ms`);
  return (
    `Access review as of a date — ${num(o.events)} access events of one company (${o.users} people, ${o.roles} roles, ${o.teams} teams, ${o.workspaces} workspaces, ${o.days} days), one workspace with a permission key, median of ${o.runs - 1} after a first run\n` +
    table(
      ['store', 'moment', 'events folded', 'first, ms', 'median, ms', 'min–max, ms', 'people', 'met', 'JSON answer, ms', 'CSV, ms'],
      reports.flatMap((r) =>
        r.moments.map((m) => [r.store, m.label, num(m.eventsFolded), num(m.firstMs), num(m.medianMs), `${num(m.minMs)}–${num(m.maxMs)}`, num(m.people), m.medianMs < goalMs ? 'yes' : 'no', num(m.jsonMs), num(m.csvMs)]),
      ),
    ) +
    '\n'
  );
}
