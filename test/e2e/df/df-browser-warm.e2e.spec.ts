import { existsSync, readdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remote } from 'webdriverio';
import type { BrowserDevice } from '#agent/browser/device.js';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * A browser device keeps a spare Chromium launched ahead of the next session, and the spare is a new
 * process on a new profile: nothing one session leaves in its browser (cookies set by script and by a
 * server, local, session and IndexedDB storage, the HTTP cache and Cache Storage, history, a download)
 * is there in the next, which runs on the spare. Driven with the unmodified WebdriverIO client over
 * `/df/wd`; the pages come from a loopback server this test runs, which sees every request's cookies.
 */
const ADMIN = { email: 'warm-admin@example.com', password: 'warm-password-1' };
const DEVICE = 'Desktop (warm)';
let server: TestServer;
let site: Site;
let token: string;
let deviceId: string;
let port: number;

interface Site {
  url: string;
  /** Every request, in order: its path and its Cookie header. */
  requests: { path: string; cookie: string }[];
  /** The Cookie header of the last request for `path`. */
  cookieSentFor(path: string): string | undefined;
  /** Requests `/cached` reached the server with. */
  cachedHits(): number;
  close(): Promise<void>;
}

const page = (title: string, body = '') =>
  `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

async function startSite(): Promise<Site> {
  const requests: Site['requests'] = [];
  const answer = (req: IncomingMessage) => {
    const url = new URL(req.url ?? '/', 'http://site');
    requests.push({ path: url.pathname + url.search, cookie: req.headers.cookie ?? '' });
    const html = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };
    switch (url.pathname) {
      case '/page': {
        const n = url.searchParams.get('n') ?? '0';
        return { status: 200, headers: html, body: page(`warm page ${n}`, `<a id="download" href="/download?name=${encodeURIComponent(url.searchParams.get('file') ?? 'warm-report.txt')}">download</a>`) };
      }
      case '/set-cookie':
        return { status: 200, headers: { ...html, 'set-cookie': 'header-cookie=from-header; Path=/; Max-Age=3600' }, body: page('warm cookie') };
      case '/cached':
        return { status: 200, headers: { 'content-type': 'text/plain', 'cache-control': 'public, max-age=3600' }, body: `cached response ${requests.filter((r) => r.path === '/cached').length}` };
      case '/download': {
        const name = url.searchParams.get('name') ?? 'warm-report.txt';
        return { status: 200, headers: { 'content-type': 'application/octet-stream', 'content-disposition': `attachment; filename="${name}"` }, body: `downloaded ${name}` };
      }
      default:
        return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' };
    }
  };
  const http: Server = createServer((req, res) => {
    const { status, headers, body } = answer(req);
    res.writeHead(status, headers).end(body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    requests,
    cookieSentFor: (path) => requests.filter((r) => r.path === path).at(-1)?.cookie,
    cachedHits: () => requests.filter((r) => r.path === '/cached').length,
    close: () => new Promise((resolve) => http.close(() => resolve())),
  };
}

beforeAll(async () => {
  site = await startSite();
  server = await startTestServer({
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    DF_WD_QUEUE_TIMEOUT: '90s',
    AGENT_CONFIG: writeAgentConfig({ nodeName: 'warm-node', heartbeatMs: 500, devices: [{ provider: 'browser', name: DEVICE, profile: 'desktop', width: 800, height: 600 }] }),
  });
  port = Number(new URL(server.url).port);
  token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
  deviceId = await eventually(async () => {
    const r = await http(server.url, 'GET', '/df/api/devices', { token });
    return r.body.content?.[0]?.status === 'available' ? (r.body.content[0].id as string) : undefined;
  }, { what: 'the browser device' });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await site?.close();
});

const device = () => server.process.agent!.driverOf(deviceId) as BrowserDevice;
/** The spare browser waiting for the next session, once it runs. */
const readySpare = () =>
  eventually(async () => device().browsers().spare ?? undefined, { what: 'a spare browser launched ahead', timeoutMs: 30_000 });
const connect = () =>
  remote({ hostname: '127.0.0.1', port, path: '/df/wd', protocol: 'http', headers: { authorization: `Bearer ${token}` }, logLevel: 'silent', connectionRetryCount: 0, capabilities: { browserName: 'chrome' } });
type Client = Awaited<ReturnType<typeof connect>>;

/**
 * Runs `body` (a script's body, awaited when it returns a promise) in the session's current page. The
 * scripts are text: this project's TypeScript has no DOM types.
 */
const run = <T>(browser: Client, body: string) => browser.execute(body) as Promise<T>;
/** The text of the current page, shadow roots included (Chromium's own pages are made of them). */
const DEEP_TEXT = `
  const parts = [];
  const walk = (node) => {
    if (node.shadowRoot) walk(node.shadowRoot);
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) parts.push(child.textContent);
      else walk(child);
    }
  };
  walk(document);
  return parts.join(' ');`;
/** Opens one of Chromium's own pages and waits until it shows `marker` (it fills itself in after loading). */
const chromePageShowing = async (browser: Client, url: string, marker: string) => {
  await browser.url(url);
  return eventually(async () => {
    const text = await run<string>(browser, DEEP_TEXT);
    return text.includes(marker) ? text : undefined;
  }, { what: `${url} to show ${marker}` });
};
/** The user-data directory the session's browser runs on, as the browser itself reports it (chrome://version shows its profile, `Default`, in it). */
const userDataDir = async (browser: Client) => {
  await browser.url('chrome://version');
  return dirname((await browser.$('#profile_path').getText()).trim());
};
interface Stored {
  local: string | null;
  session: string | null;
  databases: string[];
  stored: string | null;
  caches: string[];
  historyLength: number;
}
/** What the page's origin keeps: local, session and IndexedDB storage, Cache Storage; and the tab's history length. */
const STORAGE = `return (async () => {
  const databases = (await indexedDB.databases()).map((d) => d.name);
  let stored = null;
  if (databases.includes('warm-db')) {
    stored = await new Promise((resolve, reject) => {
      const open = indexedDB.open('warm-db');
      open.onsuccess = () => {
        const read = open.result.transaction('things').objectStore('things').get('key');
        read.onsuccess = () => (open.result.close(), resolve(read.result));
        read.onerror = () => reject(read.error);
      };
      open.onerror = () => reject(open.error);
    });
  }
  return { local: localStorage.getItem('warm'), session: sessionStorage.getItem('warm'), databases, stored, caches: await caches.keys(), historyLength: history.length };
})();`;
const STORE = `return (async () => {
  localStorage.setItem('warm', 'local');
  sessionStorage.setItem('warm', 'session');
  await new Promise((resolve, reject) => {
    const open = indexedDB.open('warm-db', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('things');
    open.onsuccess = () => {
      const tx = open.result.transaction('things', 'readwrite');
      tx.objectStore('things').put('indexed', 'key');
      tx.oncomplete = () => (open.result.close(), resolve());
      tx.onerror = () => reject(tx.error);
    };
    open.onerror = () => reject(open.error);
  });
  await (await caches.open('warm-cache')).put('/cache-storage', new Response('kept'));
})();`;
const storage = (browser: Client) => run<Stored>(browser, STORAGE);
const fetchCached = (browser: Client) => run<string>(browser, `return fetch('/cached').then((r) => r.text());`);
const cookieNames = async (browser: Client) => (await browser.getCookies()).map((c) => c.name).sort();

describe('a browser device\'s next session runs on a spare launched ahead, on a new profile', () => {
  let firstProfile: string;

  it('launches a spare ahead of the first session, which runs on it and leaves cookies, storage, cache, history and a download', { timeout: 180_000 }, async () => {
    const spare = await readySpare();
    expect(existsSync(spare.userDataDir)).toBe(true);
    const browser = await connect();
    try {
      expect(device().browsers().session).toEqual({ pid: spare.pid, userDataDir: spare.userDataDir, launchedAhead: true });
      firstProfile = await userDataDir(browser);
      expect(firstProfile).toBe(spare.userDataDir);

      // Cookies: one set by the page's script, one by the server's Set-Cookie header.
      await browser.url(`${site.url}/page?n=1`);
      await run(browser, `document.cookie = 'script-cookie=from-script; Max-Age=3600; Path=/';`);
      await browser.url(`${site.url}/set-cookie`);
      await browser.url(`${site.url}/page?n=2`);
      expect(site.cookieSentFor('/page?n=2')).toContain('script-cookie=from-script');
      expect(site.cookieSentFor('/page?n=2')).toContain('header-cookie=from-header');
      expect(await cookieNames(browser)).toEqual(['header-cookie', 'script-cookie']);

      // Local, session and IndexedDB storage, Cache Storage.
      await run(browser, STORE);
      expect(await storage(browser)).toMatchObject({ local: 'local', session: 'session', databases: ['warm-db'], stored: 'indexed', caches: ['warm-cache'] });

      // The HTTP cache: the second fetch is answered by the browser, not the server.
      expect(await fetchCached(browser)).toBe('cached response 1');
      expect(await fetchCached(browser)).toBe('cached response 1');
      expect(site.cachedHits()).toBe(1);

      // History: the tab's entries (the blank start, chrome://version, three pages), and the browser's history of visited pages.
      expect((await storage(browser)).historyLength).toBe(5);
      await chromePageShowing(browser, 'chrome://history', 'warm page 2');

      // A download, saved in the profile's own folder.
      await browser.url(`${site.url}/page?n=3`);
      await browser.$('#download').click();
      const saved = join(firstProfile, 'Downloads', 'warm-report.txt');
      await eventually(async () => (existsSync(saved) ? true : undefined), { what: `the download at ${saved}` });
      await chromePageShowing(browser, 'chrome://downloads', 'warm-report.txt');
    } finally {
      await browser.deleteSession();
    }
    // Released: the session's browser is gone with its profile, the download in it.
    await eventually(async () => (existsSync(firstProfile) ? undefined : true), { what: 'the first session\'s profile to be deleted' });
  });

  it('session 2 runs on a new spare, with none of it', { timeout: 180_000 }, async () => {
    const spare = await readySpare();
    expect(spare.userDataDir).not.toBe(firstProfile);
    const cachedBefore = site.cachedHits();
    const browser = await connect();
    try {
      expect(device().browsers().session).toEqual({ pid: spare.pid, userDataDir: spare.userDataDir, launchedAhead: true });
      expect(await userDataDir(browser)).toBe(spare.userDataDir);

      await browser.url(`${site.url}/page?n=4`);
      expect(site.cookieSentFor('/page?n=4')).toBe('');
      expect(await cookieNames(browser)).toEqual([]);
      expect(await storage(browser)).toEqual({ local: null, session: null, databases: [], stored: null, caches: [], historyLength: 3 });
      expect(await fetchCached(browser)).toBe(`cached response ${cachedBefore + 1}`);
      expect(site.cachedHits()).toBe(cachedBefore + 1);

      // The browser's history has this session's page only.
      const history = await chromePageShowing(browser, 'chrome://history', 'warm page 4');
      expect(history).not.toContain('warm page 2');

      // The downloads list and folder have this session's download only.
      await browser.url(`${site.url}/page?n=5&file=warm-second.txt`);
      await browser.$('#download').click();
      const downloads = await chromePageShowing(browser, 'chrome://downloads', 'warm-second.txt');
      expect(downloads).not.toContain('warm-report.txt');
      await eventually(async () => (existsSync(join(spare.userDataDir, 'Downloads', 'warm-second.txt')) ? true : undefined), { what: 'the second download' });
      expect(readdirSync(join(spare.userDataDir, 'Downloads'))).toEqual(['warm-second.txt']);
    } finally {
      await browser.deleteSession();
    }
    await eventually(async () => (existsSync(spare.userDataDir) ? undefined : true), { what: 'the second session\'s profile to be deleted' });
  });

  it('launches the next spare after the release, and stops it with the agent', { timeout: 60_000 }, async () => {
    const spare = await readySpare();
    expect(existsSync(spare.userDataDir)).toBe(true);
    expect(device().browsers().session).toBeNull();
    await server.process.agent!.stop();
    expect(existsSync(spare.userDataDir)).toBe(false);
    expect(() => process.kill(spare.pid, 0)).toThrow();
  });
});
