import { handlers } from './types.js';

/** The device's files: pushed from a staged upload, pulled in ranges, listed, deleted, folders made. */
export const fileOps = handlers({
  pushFile: {
    needs: { any: ['pushFile'], what: 'files' },
    run: async ({ driver, staging }, command) => {
      const file = staging().take(command.stageId);
      try {
        return await driver.pushFile!(file.path, command.path);
      } finally {
        await file.done();
      }
    },
  },
  pullFile: {
    needs: { any: ['pullFile'], what: 'files' },
    run: ({ driver, staging }, command) => staging().read(command.path, command.offset, command.length, (local) => driver.pullFile!(command.path, local)),
  },
  listFiles: { needs: { any: ['listFiles'], what: 'files' }, run: ({ driver }, command) => driver.listFiles!(command.path) },
  deleteFile: { needs: { any: ['deleteFile'], what: 'files' }, run: ({ driver }, command) => driver.deleteFile!(command.path) },
  makeFolder: { needs: { any: ['makeFolder'], what: 'files' }, run: ({ driver }, command) => driver.makeFolder!(command.path) },
});
