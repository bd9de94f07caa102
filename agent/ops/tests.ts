import { handlers } from './types.js';

/**
 * Instrumentation tests: a run starts in the background and answers its id, its events are polled while
 * the worker goes on answering the device's other commands (the screen a viewer watches), and it can be
 * stopped. The run belongs to the session: its release stops it.
 */
export const testOps = handlers({
  instrumentStart: { needs: { any: ['startInstrumentation'], what: 'instrumentation tests' }, run: ({ driver }, command) => driver.startInstrumentation!(command) },
  instrumentPoll: { needs: { any: ['pollInstrumentation'], what: 'instrumentation tests' }, run: ({ driver }, command) => driver.pollInstrumentation!(command.runId, command.afterSeq ?? 0, command.waitMs ?? 0) },
  instrumentStop: { needs: { any: ['stopInstrumentation'], what: 'instrumentation tests' }, run: ({ driver }, command) => driver.stopInstrumentation!(command.runId) },
});
