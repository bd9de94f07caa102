import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { startWebInspectorService } from 'appium-ios-device/build/lib/services.js';
import type { DebugTarget } from '../provider.js';

const APPS_TIMEOUT_MS = 5_000;
/** Apps without inspectable pages may not answer a listing; the listing waits this long for them. */
const LISTING_TIMEOUT_MS = 2_000;

type Rpc = { __selector?: string; __argument?: Record<string, unknown> };
type AppEntry = { WIRApplicationIdentifierKey?: string; WIRApplicationBundleIdentifierKey?: string; WIRApplicationNameKey?: string };
type PageEntry = { WIRPageIdentifierKey?: number; WIRTitleKey?: string; WIRURLKey?: string; WIRTypeKey?: string };

/**
 * The pages and web views the web inspector service announces, through appium-ios-device's
 * WebInspectorService: identify, wait for the connected application list, ask each application for its
 * listing. Safari's pages are `page` targets, other apps' web views `webview` targets; a target's id is
 * `<application id>.<page id>` (`PID:4242.1`: characters a tunnel path takes).
 */
export async function listInspectorTargets(udid: string, socket: Socket | TLSSocket, osVersion: string): Promise<DebugTarget[]> {
  const service = await startWebInspectorService(udid, { socket, osVersion });
  const connection = randomUUID().toUpperCase();
  const apps = new Map<string, AppEntry>();
  const listings = new Map<string, Record<string, PageEntry>>();
  let appsArrived: () => void = () => undefined;
  let listingArrived: () => void = () => undefined;
  const appsReady = new Promise<void>((resolve) => (appsArrived = resolve));
  service.listenMessage((message: Rpc) => {
    const argument = message.__argument ?? {};
    if (message.__selector === '_rpc_reportConnectedApplicationList:') {
      for (const [id, app] of Object.entries((argument.WIRApplicationDictionaryKey ?? {}) as Record<string, AppEntry>)) apps.set(id, app);
      appsArrived();
    } else if (message.__selector === '_rpc_applicationSentListing:' && typeof argument.WIRApplicationIdentifierKey === 'string') {
      listings.set(argument.WIRApplicationIdentifierKey, (argument.WIRListingKey ?? {}) as Record<string, PageEntry>);
      listingArrived();
    }
  });
  try {
    service.sendMessage({ __selector: '_rpc_reportIdentifier:', __argument: { WIRConnectionIdentifierKey: connection } });
    // A device with nothing inspectable may stay silent: that is no targets, not a failure.
    const announced = await withDeadline(appsReady, APPS_TIMEOUT_MS, 'no applications').then(
      () => true,
      () => false,
    );
    if (!announced) return [];
    for (const id of apps.keys()) {
      service.sendMessage({ __selector: '_rpc_forwardGetListing:', __argument: { WIRConnectionIdentifierKey: connection, WIRApplicationIdentifierKey: id } });
    }
    const deadline = Date.now() + LISTING_TIMEOUT_MS;
    while (listings.size < apps.size && Date.now() < deadline) {
      await Promise.race([new Promise<void>((resolve) => (listingArrived = resolve)), new Promise((resolve) => setTimeout(resolve, deadline - Date.now()).unref())]);
    }
  } finally {
    service.close();
  }
  const targets: DebugTarget[] = [];
  for (const [appId, pages] of listings) {
    const app = apps.get(appId) ?? {};
    const bundle = app.WIRApplicationBundleIdentifierKey;
    const pid = /^PID:(\d+)$/.exec(appId)?.[1];
    for (const page of Object.values(pages)) {
      if (page.WIRPageIdentifierKey === undefined) continue;
      targets.push({
        id: `${appId}.${page.WIRPageIdentifierKey}`,
        kind: bundle === 'com.apple.mobilesafari' ? 'page' : 'webview',
        title: (page.WIRTitleKey || page.WIRURLKey || app.WIRApplicationNameKey || 'page').slice(0, 500),
        ...(pid ? { pid: Number(pid) } : {}),
        ...(bundle ? { package: bundle } : {}),
        protocol: 'webkit_inspector',
      });
    }
  }
  return targets;
}

async function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(what)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
