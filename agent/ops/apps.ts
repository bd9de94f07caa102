import { handlers } from './types.js';

/** Installed apps: listed, installed from a staged upload, removed, looked for, and the platform's helpers opened. */
export const appOps = handlers({
  apps: { needs: { any: ['listApps'], what: 'apps' }, run: async ({ driver }, command) => ({ apps: await driver.listApps!(command.thirdPartyOnly ?? false) }) },
  installApp: {
    needs: { any: ['installApp'], what: 'installing apps' },
    run: async ({ driver, staging }, command) => {
      const file = staging().take(command.stageId);
      try {
        return await driver.installApp!(file.path);
      } finally {
        await file.done();
      }
    },
  },
  uninstallApp: { needs: { any: ['uninstallApp'], what: 'uninstalling apps' }, run: ({ driver }, command) => driver.uninstallApp!(command.packageName) },
  appPresence: { needs: { any: ['appPresence'], what: 'apps' }, run: ({ driver }, command) => driver.appPresence!(command.packageNames) },
  openHelper: { needs: { any: ['openHelper'], what: 'app helpers' }, run: ({ driver }, command) => driver.openHelper!(command.helper, command.packageName) },
});
