import { handlers } from './types.js';

/** The largest upload a worker stages for its device (the service enforces its own, smaller limits). */
const MAX_STAGE_BYTES = 2 * 1024 * 1024 * 1024;

/** Uploads in chunks (each well under the bus's payload limit), checked and committed, for an install or a push. */
export const stagingOps = handlers({
  stageBegin: { needs: { any: ['installApp', 'pushFile'], what: 'uploads' }, run: async ({ staging }, command) => ({ stageId: await staging().begin(command.size, MAX_STAGE_BYTES) }) },
  stageChunk: { run: async ({ staging }, command) => ({ received: await staging().chunk(command.stageId, command.offset, Buffer.from(command.base64, 'base64')) }) },
  stageCommit: {
    run: ({ staging }, command) => {
      staging().commit(command.stageId, command.size, command.sha256);
      return { stageId: command.stageId, size: command.size };
    },
  },
});
