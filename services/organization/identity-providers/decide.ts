import { AppError } from '#shared/errors.js';
import { defineDecider } from '#shared/es/index.js';
import { activeIn } from '#shared/es/index.js';
import { SECRET_ADDRESS_FIELDS, SECRET_FIELDS, type IdentityProviderEvent, type IdentityProviderType } from '#events/organization/identity-providers.js';
import { sameJson } from '#shared/canonical.js';

type Created = Extract<IdentityProviderEvent, { type: 'IdentityProviderCreated' }>['payload'];
type Settings = Omit<Created, 'providerId' | 'companyId' | 'type'>;

export type IdentityProviderCommand =
  | { type: 'CreateIdentityProvider'; provider: Created }
  | { type: 'ChangeIdentityProvider'; companyId: number; settings: Settings }
  | { type: 'DeleteIdentityProvider'; companyId: number };

export type IdentityProviderState =
  | { status: 'none' }
  | ({ status: 'active'; providerId: number; companyId: number; type: IdentityProviderType } & Settings)
  | { status: 'deleted'; providerId: number };

const live = (state: IdentityProviderState, companyId: number) => activeIn(state, companyId, 'Identity provider');

/**
 * A change leaves a secret out to keep it (secrets are write-only): the stored one is carried over — but
 * only to where it went before. A change of where a secret is sent (the address, the issuer, the client it
 * belongs to) without the secret itself is 400 SECRET_REQUIRED, so nobody who may edit a provider can have
 * its stored secret sent to a server of theirs.
 */
function keepSecrets(type: IdentityProviderType, before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const config = { ...after };
  const kept = SECRET_FIELDS[type].filter((field) => config[field] === undefined && before[field] !== undefined);
  const moved = SECRET_ADDRESS_FIELDS[type].filter((field) => !sameJson(before[field], after[field]));
  if (kept.length > 0 && moved.length > 0) {
    throw new AppError('SECRET_REQUIRED', `Changing ${moved.join(', ')} needs ${kept.join(', ')} again: a stored secret is sent only where it was set for`, {
      details: kept.map((field) => ({ path: `config.${field}`, message: `Required when ${moved.join(', ')} change` })),
    });
  }
  for (const field of kept) config[field] = before[field];
  return config;
}

/** An identity provider of one company: created, changed (as a whole), deleted. */
export const identityProviderDecider = defineDecider<IdentityProviderCommand, IdentityProviderEvent, IdentityProviderState>({
  initialState: () => ({ status: 'none' }),
  evolve: {
    IdentityProviderCreated: (_state, event) => ({ status: 'active', ...event.payload }),
    IdentityProviderChanged: (state, event) => (state.status === 'active' ? { ...state, ...event.payload } : state),
    IdentityProviderDeleted: (_state, event) => ({ status: 'deleted', providerId: event.payload.providerId }),
  },
  decide: {
    CreateIdentityProvider: (command, state) => {
      if (state.status !== 'none') throw new AppError('ALREADY_EXISTS', 'Identity provider already exists');
      return [{ type: 'IdentityProviderCreated', payload: command.provider }];
    },
    ChangeIdentityProvider: (command, state) => {
      const p = live(state, command.companyId);
      const settings = { ...command.settings, config: keepSecrets(p.type, p.config, command.settings.config) };
      const { status: _s, providerId: _p, companyId: _c, type: _t, ...before } = p;
      if (sameJson(before, { ...before, ...settings })) return [];
      return [{ type: 'IdentityProviderChanged', payload: { providerId: p.providerId, ...settings } }];
    },
    DeleteIdentityProvider: (command, state) => {
      const p = live(state, command.companyId);
      return [{ type: 'IdentityProviderDeleted', payload: { providerId: p.providerId, name: p.name } }];
    },
  },
});
