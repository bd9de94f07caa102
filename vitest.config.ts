import { defineConfig } from 'vitest/config';

/** The client packages (clients/*) resolve to their sources in the repository; outside, to their built dist/. */
const SOURCE = 'qa-platform-source';

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
    // Two groups, one after the other (README, "Test it"). First the unit and integration files, two at a
    // time: each holds one program or database of its own and is mostly waiting on it. Then the end-to-end
    // files one at a time on CI's 2-core machine: each already keeps both cores busy with its server,
    // browsers and peers, and two at a time there gained little and loaded the machine enough to time out
    // browser tests. `npm test -- --maxWorkers=2` runs two end-to-end files at a time on a bigger machine.
    projects: [
      { extends: true, test: { name: 'unit-int', include: ['{shared,events,services,projections,agent,test}/**/*.{unit,int}.spec.ts'], maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'e2e', include: ['{shared,events,services,projections,agent,test}/**/*.e2e.spec.ts'], maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
