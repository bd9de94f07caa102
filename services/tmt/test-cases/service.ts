import { testCaseStream } from '#events/tmt/test-cases.js';
import { aggregate } from '#shared/es/index.js';
import type { Platform } from '../../platform.js';
import { writeActor, type TmtWriteScope } from '../http.js';
import { testCaseDecider } from './decide.js';
import { commandContext } from '#shared/es/index.js';

export type TestCaseCommand = Parameters<typeof testCaseDecider.decide>[0];

/** The write side of test cases: one aggregate per case, answering once `tmt-test-cases` holds the write. */
export function testCaseWrites(platform: Platform) {
  const cases = aggregate(platform, { decider: testCaseDecider, stream: testCaseStream, readModels: ['tmt-test-cases'] });
  return {
    /** Runs a command on a test case as the caller; `created`: the id is new, no stream to read. */
    run: async (scope: TmtWriteScope, testCaseId: string, command: TestCaseCommand, created = false): Promise<void> => {
      await cases.run(testCaseId, command, commandContext(platform, writeActor(scope)), { created });
    },
  };
}
