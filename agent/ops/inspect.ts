import { handlers } from './types.js';

/** What the device shows and says: its logs, its UI tree, its accessibility findings. */
export const inspectOps = handlers({
  logs: { run: ({ driver }, command) => driver.logs(command.afterSeq ?? 0) },
  uiTree: { run: ({ driver }) => driver.uiTree() },
  accessibilityScan: { needs: { any: ['accessibilityScan'], what: 'accessibility scans (it has no accessibility engine)' }, run: ({ driver }) => driver.accessibilityScan!() },
});
