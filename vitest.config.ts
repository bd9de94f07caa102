import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{shared,events,services,projections,agent,test}/**/*.spec.ts'],
    environment: 'node',
    pool: 'forks',
    // Two test files at a time, each in a process of its own: most files spend their time waiting on
    // servers, browsers and sockets, so two share a 2-core machine well (Vitest's own default there is
    // one). Files never share a port, database, Redis prefix, NATS server or adb server (README,
    // "Test it"). VITEST_MAX_WORKERS=<n> or `npm test -- --maxWorkers=<n>` changes it for a run.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    // Builds the console and dfctl once, then fails the run when it left the working tree changed (test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
  },
});
