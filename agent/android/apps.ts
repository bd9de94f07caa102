import { randomUUID } from 'node:crypto';
import type { AppHelper } from '#shared/wire/index.js';
import type { RpcResult } from '#shared/wire/index.js';
import { DriverError } from '../provider.js';
import { pushFile, shellQuote } from './adb.js';
import type { AndroidContext } from './context.js';
import { SETTINGS_PACKAGE } from './input.js';
import { UIA2_SERVER_PACKAGE, UIA2_TEST_PACKAGE } from './uiautomator2.js';

/** Apps the farm keeps on a device (the Unicode input method's helper, UiAutomator2): never uninstalled at release. */
const HELPER_PACKAGES = new Set([SETTINGS_PACKAGE, UIA2_SERVER_PACKAGE, UIA2_TEST_PACKAGE]);
export const SCRATCH_ROOT = '/data/local/tmp';
const SYSTEM_SETTINGS = 'com.android.settings';
const PLAY_STORE = 'com.android.vending';
const launcherCommand = (pkg: string) => `monkey -p ${pkg} -c android.intent.category.LAUNCHER 1`;
const settingsLaunch = (screen: string, data?: string) => ({ command: `am start -a android.settings.${screen}${data ? ` -d ${shellQuote(data)}` : ''}`, pkg: SYSTEM_SETTINGS });

/** The shell command that opens a helper, and the package it starts (force-stopped at release). */
function helperLaunch(helper: AppHelper, packageName: string | undefined): { command: string; pkg: string } {
  const needPackage = (): string => {
    if (!packageName) throw new DriverError('BAD_REQUEST', `The ${helper} helper needs a packageName`);
    return packageName;
  };
  switch (helper) {
    case 'play-store':
      return {
        command: packageName ? `am start -a android.intent.action.VIEW -d ${shellQuote(`market://details?id=${packageName}`)}` : launcherCommand(PLAY_STORE),
        pkg: PLAY_STORE,
      };
    case 'settings':
      return settingsLaunch('SETTINGS');
    case 'app-settings':
      return settingsLaunch('APPLICATION_DETAILS_SETTINGS', `package:${needPackage()}`);
    case 'developer-options':
      return settingsLaunch('APPLICATION_DEVELOPMENT_SETTINGS');
    case 'wifi-settings':
      return settingsLaunch('WIFI_SETTINGS');
    case 'launch-app': {
      const pkg = needPackage();
      return { command: launcherCommand(pkg), pkg };
    }
    default: {
      const never: never = helper;
      throw new DriverError('BAD_REQUEST', `Unknown helper ${String(never)}`);
    }
  }
}

/**
 * The apps of an Android device (`pm`, `am`, `monkey`): listed, installed, uninstalled, looked for, the
 * platform's helpers opened. A session leaves none behind: release force-stops what it started and
 * uninstalls what was installed since prepare.
 */
export class AndroidApps {
  private baseline = new Set<string>();
  private readonly started = new Set<string>();

  constructor(private readonly ctx: AndroidContext) {}

  /** Notes the apps installed before the session. */
  async prepare(): Promise<void> {
    this.baseline = new Set(await this.packages(false));
    this.started.clear();
  }

  /** Force-stops what the session started, uninstalls what it installed. */
  async release(attempt: (what: string, work: () => Promise<unknown>) => Promise<void>): Promise<void> {
    const started = [...this.started];
    this.started.clear();
    await Promise.all(started.map((pkg) => attempt(`force-stop ${pkg}`, () => this.ctx.sh(`am force-stop ${pkg}`))));
    if (this.baseline.size === 0) return;
    await attempt('uninstalling session apps', async () => {
      // The helper with the Unicode input method stays, as any helper the farm keeps on a device.
      const added = (await this.packages(false)).filter((pkg) => !this.baseline.has(pkg) && !HELPER_PACKAGES.has(pkg));
      const failed = (await Promise.allSettled(added.map((pkg) => this.ctx.sh(`pm uninstall ${pkg}`)))).find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
    });
  }

  async list(thirdPartyOnly: boolean): Promise<RpcResult<'apps'>['apps']> {
    const thirdParty = new Set(await this.packages(true));
    const all = thirdPartyOnly ? [...thirdParty] : await this.packages(false);
    return all.sort().map((packageName) => ({ packageName, system: !thirdParty.has(packageName) }));
  }

  async install(localPath: string, scratch: string | null): Promise<RpcResult<'installApp'>> {
    this.ctx.requirePrepared();
    const before = new Set(await this.packages(false));
    const remote = `${scratch ?? SCRATCH_ROOT}/upload-${randomUUID().slice(0, 8)}.apk`;
    await pushFile(this.ctx.device, localPath, remote);
    try {
      const out = await this.ctx.sh(`pm install -r -t ${shellQuote(remote)}`);
      const failure = /Failure \[([^\]]*)\]/.exec(out) ?? /^(Exception|Error).*$/m.exec(out);
      if (failure || !/Success/.test(out)) throw new DriverError('BAD_REQUEST', `The app could not be installed: ${(failure?.[1] ?? out.trim()).slice(0, 300) || 'no answer from pm'}`);
    } finally {
      await this.ctx.sh(`rm -f ${shellQuote(remote)}`).catch(() => undefined);
    }
    const added = (await this.packages(false)).filter((p) => !before.has(p));
    return { packageNames: added };
  }

  async uninstall(packageName: string): Promise<RpcResult<'uninstallApp'>> {
    this.ctx.requirePrepared();
    if (!(await this.packages(false)).includes(packageName)) return { packageName, uninstalled: false };
    const out = await this.ctx.sh(`pm uninstall ${packageName}`);
    if (!/Success/.test(out)) throw new DriverError('BAD_REQUEST', `The app could not be uninstalled: ${out.trim().slice(0, 300)}`);
    this.started.delete(packageName);
    return { packageName, uninstalled: true };
  }

  async presence(packageNames: string[]): Promise<RpcResult<'appPresence'>> {
    const installed = new Set(await this.packages(false));
    return { presence: Object.fromEntries(packageNames.map((p) => [p, installed.has(p)])) };
  }

  async openHelper(helper: AppHelper, packageName?: string): Promise<RpcResult<'openHelper'>> {
    this.ctx.requirePrepared();
    const { command, pkg } = helperLaunch(helper, packageName);
    const out = await this.ctx.sh(command);
    if (helper === 'launch-app' && /monkey aborted|No activities found/.test(out)) throw new DriverError('BAD_REQUEST', `${pkg} has no launcher activity on this device`);
    this.started.add(pkg);
    if (/^Error/m.test(out)) throw new DriverError('DEVICE_ERROR', `The ${helper} helper could not be opened: ${out.trim().slice(0, 300)}`);
    return { helper, ...(packageName ? { packageName } : {}) };
  }

  private async packages(thirdPartyOnly: boolean): Promise<string[]> {
    const out = await this.ctx.sh(thirdPartyOnly ? 'pm list packages -3' : 'pm list packages');
    return out
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('package:'))
      .map((l) => l.slice('package:'.length));
  }
}
