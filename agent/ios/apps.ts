import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { AfcService } from 'appium-ios-device/build/lib/afc/index.js';
import { InstallationProxyService } from 'appium-ios-device/build/lib/installation-proxy/index.js';
import { PlistService } from 'appium-ios-device/build/lib/plist-service/index.js';
import { NotAZipError, readAppArchive } from '#shared/apps/index.js';
import type { RpcResult } from '#shared/wire/index.js';
import { DriverError } from '../provider.js';
import type { IosContext } from './context.js';

/** Where uploaded IPAs wait in the AFC media area for installation_proxy (the folder Xcode and ideviceinstaller use). */
const STAGING = 'PublicStaging';

/**
 * Apps of an iOS device: installation_proxy lists, installs (an IPA AFC staged in the media area) and
 * uninstalls; a session's apps are uninstalled at release (what was there at prepare stays).
 */
export class IosApps {
  private baseline = new Set<string>();

  constructor(private readonly ctx: IosContext) {}

  /** Notes what is installed before the session. */
  async prepare(): Promise<void> {
    this.baseline = new Set(Object.keys(await this.browse('User')));
  }

  /** Uninstalls what the session installed; answers the problems met. */
  async release(): Promise<string[]> {
    const problems: string[] = [];
    try {
      for (const bundleId of Object.keys(await this.browse('User'))) {
        if (this.baseline.has(bundleId)) continue;
        await this.withInstaller((proxy) => proxy.uninstallApplication(bundleId)).catch((err: Error) => problems.push(`uninstalling ${bundleId}: ${err.message}`));
      }
    } catch (err) {
      problems.push(`listing apps: ${(err as Error).message}`);
    }
    return problems;
  }

  async list(thirdPartyOnly: boolean): Promise<RpcResult<'apps'>['apps']> {
    const apps = await this.browse(thirdPartyOnly ? 'User' : 'Any');
    return Object.entries(apps)
      .map(([packageName, attrs]) => ({ packageName, system: attrs.ApplicationType !== 'User' }))
      .sort((a, b) => a.packageName.localeCompare(b.packageName));
  }

  async install(localPath: string): Promise<RpcResult<'installApp'>> {
    this.ctx.requirePrepared();
    let bundleId: string;
    try {
      const meta = await readAppArchive(localPath);
      if (meta?.platform !== 'ios') throw new DriverError('BAD_REQUEST', 'iOS devices install IPAs (a zip with Payload/<App>.app/Info.plist)');
      bundleId = meta.identifier;
    } catch (err) {
      if (err instanceof DriverError) throw err;
      throw new DriverError('BAD_REQUEST', err instanceof NotAZipError ? 'The file is not an IPA (not a zip archive)' : `The IPA could not be read: ${(err as Error).message}`);
    }
    const staged = `${STAGING}/df-${randomUUID().slice(0, 8)}.ipa`;
    await this.withAfc(async (afc) => {
      await afc.createDirectory(STAGING);
      const target = await afc.createWriteStream(staged, {});
      await pipeline(createReadStream(localPath), target);
    });
    try {
      await this.withInstaller((proxy) => proxy.installApplication(staged, { PackageType: 'Developer' }, 300_000));
    } catch (err) {
      throw new DriverError('BAD_REQUEST', `The app could not be installed: ${(err as Error).message.slice(0, 300)}`);
    } finally {
      await this.withAfc((afc) => afc.deleteDirectory(staged)).catch(() => undefined);
    }
    return { packageNames: [bundleId] };
  }

  async uninstall(packageName: string): Promise<RpcResult<'uninstallApp'>> {
    this.ctx.requirePrepared();
    if (!(packageName in (await this.browse('Any')))) return { packageName, uninstalled: false };
    try {
      await this.withInstaller((proxy) => proxy.uninstallApplication(packageName));
    } catch (err) {
      throw new DriverError('BAD_REQUEST', `The app could not be uninstalled: ${(err as Error).message.slice(0, 300)}`);
    }
    return { packageName, uninstalled: true };
  }

  async presence(packageNames: string[]): Promise<RpcResult<'appPresence'>> {
    const apps = await this.browse('Any');
    return { presence: Object.fromEntries(packageNames.map((p) => [p, p in apps])) };
  }

  /** Installed apps by bundle id: `User` (third-party), `System` or `Any`. */
  async browse(type: 'User' | 'System' | 'Any'): Promise<Record<string, { ApplicationType?: string }>> {
    return this.withInstaller(async (proxy) => (await proxy.listApplications({ applicationType: type, returnAttributes: ['CFBundleIdentifier', 'ApplicationType', 'CFBundleDisplayName'] })) as Record<string, { ApplicationType?: string }>);
  }

  private async withInstaller<T>(work: (proxy: InstallationProxyService) => Promise<T>): Promise<T> {
    const proxy = new InstallationProxyService(new PlistService(await this.ctx.service('com.apple.mobile.installation_proxy')));
    try {
      return await work(proxy);
    } finally {
      proxy.close();
    }
  }

  private async withAfc<T>(work: (afc: AfcService) => Promise<T>): Promise<T> {
    const afc = new AfcService(await this.ctx.service('com.apple.afc'));
    try {
      return await work(afc);
    } finally {
      afc.close();
    }
  }
}
