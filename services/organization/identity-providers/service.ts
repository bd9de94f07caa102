import { getTeam, getWorkspace } from '#projections/org-directory/index.js';
import { findEnabledIdentityProvider, getIdentityProvider, listIdentityProviders, liveIdentityProviderIds, type IdentityProviderRow } from '#projections/org-identity-providers/index.js';
import {
  identityProviderStream,
  ldapConfig,
  oidcConfig,
  samlConfig,
  SECRET_FIELDS,
  type IdentityMapping,
  type IdentityProviderType,
} from '#events/organization/identity-providers.js';
import { SealedValueError, SecretBox } from '#shared/auth/index.js';
import { AppError, found } from '#shared/errors.js';
import { commandContext, type CommandContext } from '#shared/es/index.js';
import { allocateId } from '#shared/ids.js';
import type { Platform } from '../../platform.js';
import { refuseDomainsOfOthers } from '../domains/index.js';
import { orgAggregate } from '../service.js';
import { assertMayGrantRoles, requireRoles } from '../roles/grant.js';
import { identityProviderDecider } from './decide.js';

/** A provider's settings as an administrator sends them (`config` checked against its type). */
export type ProviderInput = Omit<IdentityProviderRow, 'id' | 'companyId' | 'createdAt' | 'updatedAt'>;

/** A provider as the API shows it: the configuration without its secrets, and which secrets are set. */
export interface ProviderView extends Omit<IdentityProviderRow, 'companyId'> {
  secretsSet: string[];
}

const CONFIG_OF = { oidc: oidcConfig, saml: samlConfig, ldap: ldapConfig } as const;
/** A change may leave the secrets out. */
const CHANGE_CONFIG_OF = { oidc: oidcConfig.extend({ clientSecret: oidcConfig.shape.clientSecret.optional() }), saml: samlConfig, ldap: ldapConfig } as const;

/** The configuration checked against its type; secrets may be left out of a change (they are kept). */
function checkedConfig(type: IdentityProviderType, config: Record<string, unknown>, change: boolean): Record<string, unknown> {
  const schema = (change ? CHANGE_CONFIG_OF : CONFIG_OF)[type];
  const parsed = schema.safeParse(config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AppError('VALIDATION_FAILED', `config.${issue.path.join('.')}: ${issue.message}`, { details: parsed.error.issues.map((i) => ({ path: `config.${i.path.join('.')}`, message: i.message })) });
  }
  return parsed.data as Record<string, unknown>;
}

export function viewOf(p: IdentityProviderRow): ProviderView {
  const { companyId: _c, config, ...rest } = p;
  const secrets = SECRET_FIELDS[p.type];
  return {
    ...rest,
    config: Object.fromEntries(Object.entries(config).filter(([k]) => !secrets.includes(k))),
    secretsSet: secrets.filter((k) => typeof config[k] === 'string' && config[k] !== ''),
  };
}

/** Where a secret of a provider belongs: a sealed value opens only there. */
const secretContext = (providerId: number, field: string) => `identity-provider:${providerId}:${field}`;

/**
 * The write side of identity providers: create, change, delete, each checked against the company's
 * roles, teams and workspaces. The configuration's secrets are sealed (`SecretBox`) before they go into
 * an event; the sign-in flows get them opened.
 */
export class IdentityProviderService {
  private readonly providers;

  constructor(
    private readonly platform: Platform,
    private readonly box: SecretBox,
    /** After a provider is created or changed: where it now enforces, what enforcement ends (auth/sso-enforcement.ts). */
    private readonly afterWrite: (provider: IdentityProviderRow, ctx: CommandContext) => Promise<void> = async () => undefined,
  ) {
    this.providers = orgAggregate(platform, identityProviderDecider, identityProviderStream, ['org-identity-providers']);
  }

  /** The configuration with the secrets it carries sealed for this provider. */
  private sealed(providerId: number, type: IdentityProviderType, config: Record<string, unknown>): Record<string, unknown> {
    const out = { ...config };
    for (const field of SECRET_FIELDS[type]) {
      const v = out[field];
      if (typeof v === 'string' && v !== '' && !SecretBox.isSealed(v)) out[field] = this.box.seal(v, secretContext(providerId, field));
    }
    return out;
  }

  /** The provider with its secrets opened, for a sign-in or "try this configuration"; SSO_FAILED when a secret does not open. */
  opened(provider: IdentityProviderRow): IdentityProviderRow {
    const config = { ...provider.config };
    for (const field of SECRET_FIELDS[provider.type]) {
      const v = config[field];
      if (typeof v !== 'string') continue;
      try {
        config[field] = this.box.open(v, secretContext(provider.id, field));
      } catch (err) {
        if (!(err instanceof SealedValueError)) throw err;
        this.platform.logger.error({ providerId: provider.id, field, err: err.message }, 'a secret of an identity provider does not open: set SECRETS_PREVIOUS_KEYS, or enter the secret again');
        throw new AppError('SSO_FAILED', `${provider.name} cannot be used until an administrator enters its ${field} again`);
      }
    }
    return { ...provider, config };
  }

  /**
   * Seals again, under the current key, the secrets of every provider sealed under an older key or
   * stored before sealing existed (a key rotation, an older installation). Run at start-up; each is an
   * `IdentityProviderChanged` of the platform itself. The number re-sealed.
   */
  async resealSecrets(): Promise<number> {
    const { db, readModels, store } = this.platform;
    await readModels.waitFor(await store.headPosition(), { names: ['org-identity-providers'] });
    let count = 0;
    for (const r of await liveIdentityProviderIds(db)) {
      const provider = await this.get(r.companyId, r.id);
      const stale = SECRET_FIELDS[provider.type].some((f) => {
        const v = provider.config[f];
        return typeof v === 'string' && v !== '' && SecretBox.keyIdOf(v) !== this.box.currentKeyId;
      });
      if (!stale) continue;
      let opened: IdentityProviderRow;
      try {
        opened = this.opened(provider);
      } catch (err) {
        // Logged by `opened`; the others are still sealed again, and this one waits for its secret.
        if (err instanceof AppError) continue;
        throw err;
      }
      const { id, companyId, type: _t, createdAt: _c, updatedAt: _u, ...settings } = opened;
      const ctx = commandContext(this.platform, { companyId });
      const change = { type: 'ChangeIdentityProvider' as const, companyId, settings: { ...settings, config: this.sealed(id, provider.type, settings.config) } };
      await this.providers.run(id, change, ctx);
      count++;
    }
    return count;
  }

  list(companyId: number): Promise<IdentityProviderRow[]> {
    return listIdentityProviders(this.platform.db, companyId);
  }

  async get(companyId: number, id: number): Promise<IdentityProviderRow> {
    return found(await getIdentityProvider(this.platform.db, companyId, id), 'Identity provider not found');
  }

  /** An enabled provider for a sign-in flow; 404 for a disabled, deleted or unknown one. */
  async enabled(id: number): Promise<IdentityProviderRow> {
    return this.opened(found(await findEnabledIdentityProvider(this.platform.db, id), 'Identity provider not found'));
  }

  async create(caller: { companyId: number; permissions: ReadonlySet<string> }, input: ProviderInput, ctx: CommandContext): Promise<IdentityProviderRow> {
    await this.checkMappings(caller, input.mappings);
    await this.checkDomains(caller.companyId, input.domains);
    const providerId = await allocateId(this.platform.db, 'identity_provider');
    const config = this.sealed(providerId, input.type, checkedConfig(input.type, input.config, false));
    const { type, ...settings } = input;
    const provider = { providerId, companyId: caller.companyId, type, ...settings, domains: normalDomains(input.domains), config };
    await this.providers.run(providerId, { type: 'CreateIdentityProvider', provider }, ctx);
    return this.written(caller.companyId, providerId, ctx);
  }

  async change(caller: { companyId: number; permissions: ReadonlySet<string> }, id: number, input: Omit<ProviderInput, 'type'>, ctx: CommandContext): Promise<IdentityProviderRow> {
    const current = await this.get(caller.companyId, id);
    const config = this.sealed(id, current.type, checkedConfig(current.type, input.config, true));
    await this.checkMappings(caller, input.mappings);
    await this.checkDomains(caller.companyId, input.domains);
    const settings = { ...input, domains: normalDomains(input.domains), config };
    await this.providers.run(id, { type: 'ChangeIdentityProvider', companyId: caller.companyId, settings }, ctx);
    return this.written(caller.companyId, id, ctx);
  }

  private async written(companyId: number, id: number, ctx: CommandContext): Promise<IdentityProviderRow> {
    const provider = await this.get(companyId, id);
    await this.afterWrite(provider, ctx);
    return provider;
  }

  async delete(companyId: number, id: number, ctx: CommandContext): Promise<void> {
    await this.providers.run(id, { type: 'DeleteIdentityProvider', companyId }, ctx);
  }

  /** Mappings name the company's roles (and the caller may grant them), teams and workspaces. */
  private async checkMappings(caller: { companyId: number; permissions: ReadonlySet<string> }, mappings: readonly IdentityMapping[]): Promise<void> {
    const { db } = this.platform;
    for (const m of mappings) {
      if (m.group !== undefined && m.claim !== undefined) throw new AppError('VALIDATION_FAILED', 'A mapping names a group or a claim, not both');
      if (m.claim !== undefined && m.value === undefined) throw new AppError('VALIDATION_FAILED', `The mapping of claim ${m.claim} needs the value it matches`);
      assertMayGrantRoles(caller.permissions, await requireRoles(db, caller.companyId, m.roleIds));
      for (const t of m.teamIds) found(await getTeam(db, caller.companyId, t), `Team ${t} not found`);
      for (const w of m.workspaceIds) found(await getWorkspace(db, caller.companyId, w), `Workspace ${w} not found`);
    }
  }

  /**
   * A provider may list domains not verified yet (set up before proving), never one another company has
   * verified (409 DOMAIN_TAKEN); only the company's verified domains enforce or are offered.
   */
  private async checkDomains(companyId: number, domains: readonly string[]): Promise<void> {
    await refuseDomainsOfOthers(this.platform.db, companyId, normalDomains(domains));
  }
}

const normalDomains = (domains: readonly string[]) => [...new Set(domains.map((d) => d.trim().toLowerCase().replace(/^@/, '')))].sort();
