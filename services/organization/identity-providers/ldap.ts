import { Client, InvalidCredentialsError, type Entry } from 'ldapts';
import type { IdentityProviderRow } from '#projections/org-identity-providers/index.js';
import type { LdapConfig } from '#events/organization/identity-providers.js';
import { AppError } from '#shared/errors.js';
import type { ExternalIdentity } from './provisioning.js';

const TIMEOUT_MS = 10_000;
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

/** The user the directory signs in, or the refusal: a wrong password, an unknown user or an unreachable directory. */
export class LdapDirectory {
  private client(c: LdapConfig): Client {
    return new Client({ url: c.url, timeout: TIMEOUT_MS, connectTimeout: TIMEOUT_MS, strictDN: false });
  }

  /** Binds with the search account (or anonymously) and reads the search base: the administration's "try this configuration". */
  async check(provider: IdentityProviderRow): Promise<{ searchBaseEntries: number }> {
    const c = provider.config as LdapConfig;
    const client = this.client(c);
    try {
      if (c.bindDn) await client.bind(c.bindDn, c.bindPassword ?? '');
      const { searchEntries } = await client.search(c.userSearchBase, { scope: 'base', attributes: ['dn'] });
      return { searchBaseEntries: searchEntries.length };
    } catch (err) {
      throw new AppError('BAD_REQUEST', `The directory refused or could not be reached: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
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
    if (password.length === 0) throw new AppError('INVALID_CREDENTIALS', 'Invalid username or password');
    const client = this.client(c);
    try {
      if (c.bindDn) await client.bind(c.bindDn, c.bindPassword ?? '');
      const { searchEntries } = await client.search(c.userSearchBase, { scope: 'sub', filter: fill(c.userFilter, { username }), sizeLimit: 2 });
      if (searchEntries.length !== 1) throw new AppError('INVALID_CREDENTIALS', 'Invalid username or password');
      const user = searchEntries[0]!;
      await client.bind(user.dn, password);
      const groups = new Set(texts(user.memberOf));
      if (c.groupSearchBase) {
        const found = await client.search(c.groupSearchBase, { scope: 'sub', filter: fill(c.groupFilter || DEFAULT_GROUP_FILTER, { dn: user.dn, username }), attributes: ['cn'] });
        for (const g of found.searchEntries) groups.add(g.dn);
      }
      const email = text(user.mail);
      if (!email) throw new AppError('SSO_FAILED', `${provider.name} has no e-mail address (mail) for ${username}`);
      const claims: Record<string, unknown> = { dn: user.dn };
      for (const [k, v] of Object.entries(user)) if (k !== 'dn' && k !== 'userPassword') claims[k] = texts(v).length === 1 ? texts(v)[0] : texts(v);
      return { email, name: text(user.displayName) ?? text(user.cn), groups: [...groups], claims };
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof InvalidCredentialsError) throw new AppError('INVALID_CREDENTIALS', 'Invalid username or password');
      throw new AppError('SSO_FAILED', `The directory ${provider.name} could not be asked: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }
}
