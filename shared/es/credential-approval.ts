import type { Decider, DomainEvent } from './decider.js';

/** What an approval records: which credential, of which kind and owner, and who approved it. */
export interface CredentialApproval {
  credentialId: string;
  kind: 'api-key' | 'oauth-client' | 'df-api-key' | 'hc-api-key' | 'engine' | 'scim-token';
  userId: number;
  approvedBy: number;
}

export type ApproveCredential = { type: 'ApproveCredential' } & CredentialApproval;
export type CredentialApproved = DomainEvent<'CredentialApproved', CredentialApproval>;

/**
 * The `credential-approval-<id>` stream of one credential: an administrator let it work where its
 * owner's company requires single sign-on. Approving twice changes nothing.
 */
export const credentialApprovalDecider: Decider<ApproveCredential, CredentialApproved, { approved: boolean }> = {
  initialState: () => ({ approved: false }),
  evolve: () => ({ approved: true }),
  decide(command, state) {
    if (state.approved) return [];
    const { type: _type, ...payload } = command;
    return [{ type: 'CredentialApproved', payload }];
  },
};
