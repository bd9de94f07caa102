import { mockServiceStream } from '#events/tmt/mock-services.js';
import { aggregate } from '#shared/es/index.js';
import type { CommandContext } from '#shared/es/index.js';
import type { Platform } from '../../platform.js';
import { mockServiceDecider, type MockServiceCommand } from './decide.js';

/** The write side of mock services: one aggregate per mock, answering once `tmt-mock-services` holds the write. */
export function mockServiceWrites(platform: Platform) {
  const mocks = aggregate(platform, { decider: mockServiceDecider, stream: mockServiceStream, readModels: ['tmt-mock-services'] });
  return {
    run: async (mockId: string, command: MockServiceCommand, context: CommandContext): Promise<void> => {
      await mocks.run(mockId, command, context);
    },
  };
}
