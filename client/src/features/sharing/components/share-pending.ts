/** What the share dialog is waiting for, and the key its busy state and refusal are kept by. */
export type Pending = { kind: 'invite' } | { kind: 'role' | 'remove'; uid: string } | { kind: 'revoke'; invitationId: string } | { kind: 'link' };

export const keyOf = (pending: Pending) =>
  pending.kind === 'role' || pending.kind === 'remove' ? `${pending.kind}:${pending.uid}` : pending.kind === 'revoke' ? `revoke:${pending.invitationId}` : pending.kind;
