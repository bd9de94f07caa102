import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/** The client packages (clients/*) resolve to their sources in the repository; outside, to their built dist/. */
const SOURCE = 'qa-platform-source';

const ROOTS = ['shared', 'events', 'services', 'projections', 'agent', 'test'];
/** What marks a file that starts Chromium: the console's or the SSO pages' browser, a browser device, Playwright, Chromium itself. */
const STARTS_CHROMIUM = /console-browser|sso-browser|chrom|browsers|playwright|'browser'|"browser"/i;

/** The end-to-end files, split into those that start Chromium and the others. */
function endToEndFiles(): { chromium: string[]; others: string[] } {
  const files = ROOTS.flatMap((root) =>
    readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.e2e.spec.ts') && !f.includes('node_modules'))
      .map((f) => join(root, f)),
  );
  const chromium = files.filter((f) => STARTS_CHROMIUM.test(readFileSync(f, 'utf8')));
  return { chromium, others: files.filter((f) => !chromium.includes(f)) };
}
const e2e = endToEndFiles();

export default defineConfig({
  // Vite's default server conditions without `module`: with it, a CommonJS dependency that requires another
  // (the AWS SDK's S3 client) is handed that one's ES build, whose extensionless imports Node cannot load.
  ssr: { resolve: { conditions: [SOURCE, 'node', 'development|production'] } },
  test: {
    environment: 'node',
    pool: 'forks',
    // The files run one after another in a worker that imports the modules once: a fresh process per file
    // spent 274 s of a 1,931 s run importing them again (1,370 s in all without it, same tests passing). A
    // file therefore stops what it started and restores what it changed (README, "Test it"); `--isolate`
    // brings back a process per file.
    isolate: false,
    testTimeout: 30_000,
    // expect.poll waits for a condition (a list re-read after a change, a page re-rendered): its 1 s default
    // is shorter than a request and a re-render take on a loaded 2-core machine, where it failed a console test.
    expect: { poll: { timeout: 15_000 } },
    hookTimeout: 60_000,
    reporters: ['default'],
    // Builds the console and dfctl once, then fails the run when it left the working tree changed (test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
    // Three groups, one after another (README, "Test it"). First the unit and integration files, two at a
    // time: each holds one program or database of its own and is mostly waiting on it. Then the end-to-end
    // files that start no Chromium, two at a time: on CI's 2-core machine they left a third of the CPU idle
    // one at a time, and two at a time ran in 458 s what took 637 s. Last the files that start Chromium,
    // one at a time: two of them at once loaded the machine enough to time out tests that keep a person's pace.
    projects: [
      { extends: true, test: { name: 'unit-int', include: ['{shared,events,services,projections,agent,test}/**/*.{unit,int}.spec.ts'], maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'e2e', include: e2e.others, maxWorkers: 2, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'e2e-chromium', include: e2e.chromium, maxWorkers: 1, sequence: { groupOrder: 2 } } },
    ],
  },
});
