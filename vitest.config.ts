import { defineConfig } from 'vitest/config';

/** The client packages (clients/*) resolve to their sources in the repository; outside, to their built dist/. */
const SOURCE = 'qa-platform-source';

export default defineConfig({
  // Vite's default server conditions without `module`: with it, a CommonJS dependency that requires another
  // (the AWS SDK's S3 client) is handed that one's ES build, whose extensionless imports Node cannot load.
  ssr: { resolve: { conditions: [SOURCE, 'node', 'development|production'] } },
  test: {
    include: ['{shared,events,services,projections,agent,test}/**/*.spec.ts'],
    environment: 'node',
    pool: 'forks',
    // One test file at a time on CI's 2-core machine (README, "Test it"): files are written to run side by
    // side (they never share a port, database, Redis prefix, NATS server or adb server), but two at a time
    // there gained little and loaded the machine enough to time out browser tests. `npm test --
    // --maxWorkers=2` runs two for a run on a bigger machine.
    maxWorkers: 1,
    // The files run one after another in one worker that imports the modules once: a fresh process per file
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
  },
});
