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
      await this.bindSearchAccount(provider, client);
      const { searchEntries } = await client.search(c.userSearchBase, { scope: 'base', attributes: ['dn'] });
      return { searchBaseEntries: searchEntries.length };
    } catch (err) {
      const reason = err instanceof AppError ? err.message : `the directory refused or could not be reached (${errorName(err)}: ${err instanceof Error ? err.message : String(err)})`;
      throw new AppError('BAD_REQUEST', reason, { cause: err });
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
    const client = this.client(c);
    try {
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
      await client.unbind().catch(() => undefined);
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
