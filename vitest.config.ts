import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{shared,events,services,projections,agent,test}/**/*.spec.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    // Fails the run when it left the working tree changed (test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
  },
});
