/**
 * Plays the browser through a provider's sign-in: follows redirects from `start` (keeping every site's
 * cookies) until the platform's console landing page `/sso` (with `?code=` or `?error=`), and returns it.
 */
export async function followSignIn(serverUrl: string, start: string): Promise<URL> {
  const cookies = new Map<string, string>();
  let url = new URL(start);
  for (let hop = 0; hop < 20; hop++) {
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`no redirect from ${url.href}: ${res.status} ${await res.text()}`);
    url = new URL(location, url);
    if (url.origin === serverUrl && url.pathname === '/sso') return url;
  }
  throw new Error('too many redirects');
}
