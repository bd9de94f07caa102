import { AppError } from '#shared/errors.js';
import { defineDecider } from '#shared/es/index.js';
import type { WebhookEvent, WebhookEventName } from '#events/organization/webhooks.js';
import { sameJson } from '#shared/canonical.js';

type Created = Extract<WebhookEvent, { type: 'WebhookCreated' }>['payload'];
export interface WebhookChanges {
  url?: string;
  events?: WebhookEventName[];
  enabled?: boolean;
}
/** Whose webhook a command may touch: another company's or workspace's is not found. */
interface Owner {
  companyId: number;
  workspaceId: number;
}

export type WebhookCommand =
  | { type: 'CreateWebhook'; webhook: Created }
  | ({ type: 'ChangeWebhook'; changes: WebhookChanges } & Owner)
  | { type: 'DisableWebhook'; reason: string }
  | ({ type: 'DeleteWebhook' } & Owner)
  | ({ type: 'RotateWebhookSecret'; secret: string; overlapEndsAt: string } & Owner)
  /** The platform's: the secrets as `was` (the stored values it read) sealed again; nothing when they changed since. */
  | { type: 'ResealWebhookSecret'; was: Secrets; secret: string; previousSecret: string | null };

/** The endpoint's stored (sealed) secrets: the one in use, and the one a rotation replaced. */
interface Secrets {
  secret: string;
  previousSecret: string | null;
}

export type WebhookState =
  | { status: 'none' }
  | ({ status: 'active'; disabledReason: string | null } & Created & Secrets)
  | { status: 'deleted' };

function live(state: WebhookState, owner: Owner) {
  if (state.status !== 'active' || state.companyId !== owner.companyId || state.workspaceId !== owner.workspaceId) throw new AppError('NOT_FOUND', 'Webhook not found');
  return state;
}

/** One endpoint of a workspace: created, changed (only what differs is recorded), disabled by the platform, its secret rotated, deleted. */
export const webhookDecider = defineDecider<WebhookCommand, WebhookEvent, WebhookState>({
  initialState: () => ({ status: 'none' }),
  evolve: {
    WebhookCreated: (_state, { payload }) => ({ status: 'active', disabledReason: null, previousSecret: null, ...payload }),
    WebhookChanged: (state, { payload: { webhookId: _id, ...changes } }) =>
      state.status === 'active' ? { ...state, ...changes, disabledReason: changes.enabled ? null : state.disabledReason } : state,
    WebhookDisabled: (state, { payload }) => (state.status === 'active' ? { ...state, enabled: false, disabledReason: payload.reason } : state),
    WebhookDeleted: () => ({ status: 'deleted' }),
    WebhookSecretRotated: (state, { payload }) => (state.status === 'active' ? { ...state, previousSecret: state.secret, secret: payload.secret } : state),
    WebhookSecretResealed: (state, { payload }) => (state.status === 'active' ? { ...state, secret: payload.secret, previousSecret: payload.previousSecret } : state),
  },
  decide: {
    CreateWebhook: (command, state) => {
      if (state.status !== 'none') throw new AppError('ALREADY_EXISTS', 'Webhook already exists');
      return [{ type: 'WebhookCreated', payload: command.webhook }];
    },
    ChangeWebhook: (command, state) => {
      const hook = live(state, command);
      const changes: WebhookChanges = {};
      if (command.changes.url !== undefined && command.changes.url !== hook.url) changes.url = command.changes.url;
      if (command.changes.events !== undefined && !sameJson(command.changes.events, hook.events)) changes.events = command.changes.events;
      if (command.changes.enabled !== undefined && command.changes.enabled !== hook.enabled) changes.enabled = command.changes.enabled;
      return Object.keys(changes).length === 0 ? [] : [{ type: 'WebhookChanged', payload: { webhookId: hook.webhookId, ...changes } }];
    },
    DisableWebhook: (command, state) => {
      if (state.status !== 'active' || !state.enabled) return [];
      return [{ type: 'WebhookDisabled', payload: { webhookId: state.webhookId, reason: command.reason } }];
    },
    RotateWebhookSecret: (command, state) => {
      const hook = live(state, command);
      return [{ type: 'WebhookSecretRotated', payload: { webhookId: hook.webhookId, secret: command.secret, overlapEndsAt: command.overlapEndsAt } }];
    },
    // A rotation between reading the secrets and sealing them again wins: its secret is not overwritten.
    ResealWebhookSecret: (command, state) => {
      if (state.status !== 'active' || state.secret !== command.was.secret || state.previousSecret !== command.was.previousSecret) return [];
      return [{ type: 'WebhookSecretResealed', payload: { webhookId: state.webhookId, secret: command.secret, previousSecret: command.previousSecret } }];
    },
    DeleteWebhook: (command, state) => {
      const hook = live(state, command);
      return [{ type: 'WebhookDeleted', payload: { webhookId: hook.webhookId, url: hook.url } }];
    },
  },
});
