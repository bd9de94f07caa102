import { describe, expect, it } from 'vitest';
import { credentialApprovalDecider as d, type ApproveCredential } from './credential-approval.js';

const approve: ApproveCredential = { type: 'ApproveCredential', credentialId: 'k-1', kind: 'api-key', userId: 7, approvedBy: 1 };

describe('a credential approval (single sign-on required)', () => {
  it('given nothing, when approved, then CredentialApproved records the credential, its owner and the approver', () => {
    expect(d.decide(approve, d.initialState())).toEqual([{ type: 'CredentialApproved', payload: { credentialId: 'k-1', kind: 'api-key', userId: 7, approvedBy: 1 } }]);
  });

  it('given an approval, when approved again, then nothing changes', () => {
    const state = d.evolve(d.initialState(), d.decide(approve, d.initialState())[0]!);
    expect(d.decide({ ...approve, approvedBy: 2 }, state)).toEqual([]);
  });
});
