import { isIP } from 'node:net';
import { setTimeout as after } from 'node:timers/promises';
import { Client, InvalidCredentialsError, type Entry } from 'ldapts';
import type { IdentityProviderRow } from '#projections/org-identity-providers/index.js';
import type { LdapConfig } from '#events/organization/identity-providers.js';
import { AppError } from '#shared/errors.js';
import { resolveChecked, type Resolve } from '#shared/net/index.js';
import type { ExternalIdentity } from './provisioning.js';

const TIMEOUT_MS = 10_000;
/**
 * Every failed "try the settings" is answered this long after it was asked, and one that has not
 * finished by then fails: refused, closed, silent and unresolvable look alike, so a company's
 * administrator cannot time the platform's network through it.
 */
export const CHECK_FAILURE_MS = 3_000;
/** The one answer of a failed "try the settings"; the reason goes to the server's log. */
const CHECK_FAILED = 'The directory could not be reached, or did not accept the search account or the search base; check the URL, the account and the search base';
/** Groups that list the user as a member, when the configuration names no filter of its own. */
const DEFAULT_GROUP_FILTER = '(|(member={{dn}})(uniqueMember={{dn}})(memberUid={{username}}))';

/** A value made safe inside an LDAP filter (RFC 4515). */
export function escapeFilter(value: string): string {
  return value.replace(/[\\*()\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

const fill = (template: string, values: Record<string, string>) => template.replace(/\{\{(\w+)\}\}/g, (_m, k: string) => escapeFilter(values[k] ?? ''));
const text = (v: Entry[string] | undefined): string | null => {
  const first = Array.isArray(v) ? v[0] : v;
  return first === undefined ? null : Buffer.isBuffer(first) ? first.toString('utf8') : String(first);
};
const texts = (v: Entry[string] | undefined): string[] => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((x) => (Buffer.isBuffer(x) ? x.toString('utf8') : String(x))));

/**
 * The directory did not accept the name and password: an unknown name, a wrong password, a locked or
 * removed account all look the same to the caller (no enumeration); `email` is the address of the
 * account found, for the sign-in log, when there was one.
 */
export class DirectoryRefusal extends AppError {
  constructor(readonly email: string | null) {
    super('INVALID_CREDENTIALS', 'Invalid username or password');
  }
}

/** The kind of a directory error, never its text (which may quote a DN or the server's words). */
const errorName = (err: unknown) => (err instanceof Error ? err.constructor.name : 'error');

export interface LdapDirectoryOptions {
  /** Whether the directory may be at a loopback, private or other special-purpose address (`LDAP_ALLOW_PRIVATE_ADDRESSES`). */
  allowPrivate: boolean;
  /** How the directory's host name is resolved (the system's resolver unless a test answers). */
  resolve?: Resolve;
  /** Where a failed check's reason is written (the operator's log). */
  logFailure: (err: unknown) => void;
}

/** The user the directory signs in, or the refusal: a wrong password, an unknown user or an unreachable directory. */
export class LdapDirectory {
  constructor(private readonly options: LdapDirectoryOptions) {}

  /**
   * A client that connects to the directory's host as resolved once and checked against the address
   * rules webhooks obey (`#shared/net`), so no later lookup can move it; over `ldaps://` the configured
   * name stays the TLS server name the certificate is checked against.
   */
  private async client(c: LdapConfig, timeoutMs = TIMEOUT_MS): Promise<Client> {
    const url = new URL(c.url);
    const target = await resolveChecked(url.hostname, { allowPrivate: this.options.allowPrivate, ...(this.options.resolve ? { resolve: this.options.resolve } : {}) });
    const tlsOptions = url.protocol === 'ldaps:' && !isIP(target.host) ? { tlsOptions: { servername: target.host } } : {};
    const client = new Client({ url: c.url, timeout: timeoutMs, connectTimeout: timeoutMs, strictDN: false, ...tlsOptions });
    // ldapts connects to its URL's host by name, takes no lookup of its own and misreads IPv6 literals in
    // a URL (hexadecimal groups as decimal), so the checked address replaces the host it parsed.
    (client as unknown as { host: string }).host = target.address;
    return client;
  }

  /**
   * Binds with the search account (or anonymously) and reads the search base: the administration's
   * "try this configuration". A failure, whatever it was, is one 400 answered `CHECK_FAILURE_MS` after
   * the request (a deadline, not a pause after the fact), its reason logged for operators.
   */
  async check(provider: IdentityProviderRow): Promise<{ searchBaseEntries: number }> {
    const deadline = after(CHECK_FAILURE_MS, 'late' as const, { ref: false });
    const checked = this.tryCheck(provider).then(
      (entries) => ({ entries }),
      (err: unknown) => ({ err }),
    );
    const first = await Promise.race([checked, deadline]);
    if (first !== 'late' && 'entries' in first) return { searchBaseEntries: first.entries };
    if (first === 'late') void checked.then((r) => 'err' in r && this.options.logFailure(r.err));
    else this.options.logFailure(first.err);
    await deadline;
    throw new AppError('BAD_REQUEST', CHECK_FAILED);
  }

  private async tryCheck(provider: IdentityProviderRow): Promise<number> {
    const c = provider.config as LdapConfig;
    const client = await this.client(c, CHECK_FAILURE_MS);
    try {
      await this.bindSearchAccount(provider, client);
      const { searchEntries } = await client.search(c.userSearchBase, { scope: 'base', attributes: ['dn'] });
      return searchEntries.length;
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }

  /**
   * Finds the user with the search account (or anonymously) by `userFilter` (`{{username}}` is the
   * name typed, escaped), binds as that user with the password typed, and as the user reads their
   * groups (`groupFilter` with `{{dn}}` and `{{username}}`, under `groupSearchBase`) and `memberOf`.
   */
  async authenticate(provider: IdentityProviderRow, username: string, password: string): Promise<ExternalIdentity> {
    const c = provider.config as LdapConfig;
    // An empty password is an anonymous bind that many directories accept: never a sign-in.
    if (password.length === 0) throw new DirectoryRefusal(null);
    let client: Client | null = null;
    try {
      client = await this.client(c);
      await this.bindSearchAccount(provider, client);
      const { searchEntries } = await client.search(c.userSearchBase, { scope: 'sub', filter: fill(c.userFilter, { username }), sizeLimit: 2 });
      if (searchEntries.length !== 1) throw new DirectoryRefusal(null);
      const user = searchEntries[0]!;
      const email = text(user.mail);
      try {
        await client.bind(user.dn, password);
      } catch (err) {
        if (err instanceof InvalidCredentialsError) throw new DirectoryRefusal(email);
        throw err;
      }
      const groups = new Set(texts(user.memberOf));
      if (c.groupSearchBase) {
        const found = await client.search(c.groupSearchBase, { scope: 'sub', filter: fill(c.groupFilter || DEFAULT_GROUP_FILTER, { dn: user.dn, username }), attributes: ['cn'] });
        for (const g of found.searchEntries) groups.add(g.dn);
      }
      if (!email) throw new AppError('SSO_FAILED', `${provider.name} has no e-mail address (mail) for ${username}`);
      const claims: Record<string, unknown> = { dn: user.dn };
      for (const [k, v] of Object.entries(user)) if (k !== 'dn' && k !== 'userPassword') claims[k] = texts(v).length === 1 ? texts(v)[0] : texts(v);
      return { email, name: text(user.displayName) ?? text(user.cn), groups: [...groups], claims };
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError('SSO_FAILED', `The directory ${provider.name} could not be asked (${errorName(err)}); an administrator can try its settings`, { cause: err });
    } finally {
      await client?.unbind().catch(() => undefined);
    }
  }

  /**
   * Binds with the search account, or stays anonymous without one. A refusal is the directory's
   * configuration at fault, never the person's password: SSO_FAILED without the account's name.
   */
  private async bindSearchAccount(provider: IdentityProviderRow, client: Client): Promise<void> {
    const c = provider.config as LdapConfig;
    if (!c.bindDn) return;
    try {
      await client.bind(c.bindDn, c.bindPassword ?? '');
    } catch (err) {
      throw new AppError('SSO_FAILED', `The directory ${provider.name} refused its search account (${errorName(err)}); an administrator can try its settings`, { cause: err });
    }
  }
}
