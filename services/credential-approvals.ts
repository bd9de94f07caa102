import { credentialApprovalStream } from '#events/organization/credentials.js';
import { aggregate, credentialApprovalDecider, type CommandContext, type CredentialApproval } from '#shared/es/index.js';
import type { Platform } from './platform.js';

/**
 * Records an administrator's approval of a credential single sign-on holds (docs/modules/identity.md,
 * "What enforcement ends"), on its `credential-approval-<id>` stream, answered once `org-credentials`
 * holds it: the one write every module's approve route makes.
 */
export function credentialApprovals(platform: Platform) {
  const approvals = aggregate(platform, { decider: credentialApprovalDecider, stream: credentialApprovalStream, readModels: ['org-credentials'] });
  return (credential: Omit<CredentialApproval, 'approvedBy'>, approvedBy: number, context: CommandContext) =>
    approvals.run(credential.credentialId, { type: 'ApproveCredential', ...credential, approvedBy }, context);
}
