import { writeFileSync } from 'node:fs';
import type { Api } from '../api.js';
import { intFlag } from '../args.js';
import type { Command } from '../command.js';
import { CliError, EXIT, usage } from '../errors.js';
import { note, printJson, printLine } from '../output.js';
import { uploadFile } from './upload.js';

/** What `dfctl run` exits with: Flank's convention, which CI systems read. */
export const RUN_EXIT = {
  /** Every test passed (flaky ones included). */
  PASSED: 0,
  /** Tests failed. */
  FAILED: 1,
  /** The run could not complete: no devices, a refusal, an infrastructure error, a cancel. */
  INCOMPLETE: 2,
} as const;

interface RunView {
  id: string;
  state: 'queued' | 'running' | 'passed' | 'failed' | 'error' | 'cancelled';
  reason?: string | null;
  counts?: { total: number; passed: number; failed: number; flaky: number; skipped: number; notRun: number };
}

const FINAL = new Set(['passed', 'failed', 'error', 'cancelled']);

/**
 * The device pool of `--devices`: a platform and an optional OS version range, `android`, `android>=12`,
 * `android>=12<=14`.
 */
export function parseDevices(spec: string): { platform: string; minOsVersion?: string; maxOsVersion?: string } {
  const m = spec.trim().match(/^([a-z]+)((?:\s*(?:>=|<=)\s*[\d.]+)*)$/i);
  if (!m) throw usage(`--devices ${spec}: expected a platform and an optional version range, like android or android>=12 or android>=12<=14`);
  const out: { platform: string; minOsVersion?: string; maxOsVersion?: string } = { platform: m[1]!.toLowerCase() };
  for (const [, op, version] of (m[2] ?? '').matchAll(/(>=|<=)\s*([\d.]+)/g)) {
    if (op === '>=') out.minOsVersion = version!;
    else out.maxOsVersion = version!;
  }
  return out;
}

const list = (value: string | undefined) => (value ? value.split(',').map((s) => s.trim()).filter(Boolean) : undefined);

/** The run's line of progress, said again only when it changes. */
function progressLine(run: RunView): string {
  const c = run.counts;
  if (!c) return `${run.state}`;
  const done = c.passed + c.failed + c.flaky + c.skipped;
  return `${run.state}: ${done}/${c.total} tests done, ${c.failed} failed${c.flaky ? `, ${c.flaky} flaky` : ''}`;
}

async function startRun(api: Api, body: Record<string, unknown>): Promise<RunView> {
  try {
    return await api.post<RunView>('/df/api/test-runs', body);
  } catch (err) {
    // A refusal to start (no matching device, not a test APK, over the quota) is a run that could not complete.
    if (err instanceof CliError && err.exitCode !== EXIT.AUTH && err.exitCode !== EXIT.UNREACHABLE) throw new CliError(err.message, err.code, RUN_EXIT.INCOMPLETE);
    throw err;
  }
}

export const run: Command = {
  name: 'run',
  summary: 'run an Android instrumentation suite across the fleet and wait for its result (for CI)',
  usage: `dfctl run --app <app.apk> --tests <app-test.apk> --devices <platform[>=min][<=max]> [--count <n>]
          [--junit <file>] [--name <name>] [--project <id>] [--class <a,b>] [--package <a,b>]
          [--annotation <a,b>] [--not-class <a,b>] [--retries <n>] [--test-timeout <s>]
          [--run-timeout <s>] [--sharding duration|uniform] [--fail-fast] [--clear-data]

Uploads the app and its test APK, starts a test run on --count devices of the pool (all that match
without it), shows progress on stderr, prints the report's link and writes the run's JUnit XML with
--junit. Exits 0 when every test passed (flaky ones included), 1 when tests failed, 2 when the run
could not complete (no device matched, the platform refused it, an infrastructure error, a cancel).`,
  flags: {
    values: ['app', 'tests', 'devices', 'count', 'junit', 'name', 'project', 'class', 'package', 'annotation', 'not-class', 'retries', 'test-timeout', 'run-timeout', 'sharding', 'poll-ms'],
    booleans: ['fail-fast', 'clear-data'],
  },
  async run(ctx) {
    const app = ctx.args.values.get('app');
    const tests = ctx.args.values.get('tests');
    const devices = ctx.args.values.get('devices');
    if (!app || !tests || !devices) throw usage('dfctl run needs --app, --tests and --devices');
    const sharding = ctx.args.values.get('sharding');
    if (sharding && sharding !== 'duration' && sharding !== 'uniform') throw usage('--sharding is duration or uniform');
    const count = intFlag(ctx.args, 'count', 1, 1000);
    const retries = intFlag(ctx.args, 'retries', 0, 10);
    const testTimeout = intFlag(ctx.args, 'test-timeout', 1, 3600);
    const runTimeout = intFlag(ctx.args, 'run-timeout', 10, 86_400);
    const pollMs = intFlag(ctx.args, 'poll-ms', 100, 60_000) ?? 2_000;
    const project = ctx.args.values.get('project');
    const api = ctx.api();

    const appFile = await uploadFile(api, app);
    const testFile = await uploadFile(api, tests);
    if (!appFile.versionId || !testFile.versionId) throw new CliError('the platform did not file the APKs as app versions', 'NOT_AN_APP', RUN_EXIT.INCOMPLETE);
    const strategy = {
      ...(sharding ? { sharding } : {}),
      ...(retries !== undefined ? { retries } : {}),
      ...(testTimeout !== undefined ? { testTimeoutSeconds: testTimeout } : {}),
      ...(runTimeout !== undefined ? { runTimeoutSeconds: runTimeout } : {}),
      ...(ctx.args.booleans.has('fail-fast') ? { failFast: true } : {}),
      ...(ctx.args.booleans.has('clear-data') ? { clearPackageData: true } : {}),
    };
    const filter = {
      ...(list(ctx.args.values.get('class')) ? { classes: list(ctx.args.values.get('class')) } : {}),
      ...(list(ctx.args.values.get('package')) ? { packages: list(ctx.args.values.get('package')) } : {}),
      ...(list(ctx.args.values.get('annotation')) ? { annotations: list(ctx.args.values.get('annotation')) } : {}),
      ...(list(ctx.args.values.get('not-class')) ? { notClasses: list(ctx.args.values.get('not-class')) } : {}),
    };
    const started = await startRun(api, {
      ...(ctx.args.values.get('name') ? { name: ctx.args.values.get('name') } : {}),
      appVersionId: appFile.versionId,
      testVersionId: testFile.versionId,
      devices: { ...parseDevices(devices), ...(count !== undefined ? { count } : {}) },
      ...(Object.keys(filter).length ? { tests: filter } : {}),
      ...(Object.keys(strategy).length ? { strategy } : {}),
      ...(project ? { projectId: project } : {}),
    });
    note(`test run ${started.id} started`);

    let last = '';
    let view: RunView = started;
    while (!FINAL.has(view.state)) {
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      view = await api.get<RunView>(`/df/api/test-runs/${started.id}`);
      const line = progressLine(view);
      if (line !== last) note(line);
      last = line;
    }
    const junit = ctx.args.values.get('junit');
    if (junit) {
      const xml = await api.request<Buffer>('GET', `/df/api/test-runs/${started.id}/junit`, { binary: true });
      writeFileSync(junit, xml);
      note(`JUnit XML written to ${junit}`);
    }
    const report = api.url(`/df/api/test-runs/${started.id}/report`).href;
    if (ctx.json) printJson({ ...view, report });
    else printLine(`${progressLine(view)}${view.reason ? ` (${view.reason})` : ''}\nReport: ${report}`);
    return view.state === 'passed' ? RUN_EXIT.PASSED : view.state === 'failed' ? RUN_EXIT.FAILED : RUN_EXIT.INCOMPLETE;
  },
};
