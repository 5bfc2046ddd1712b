/**
 * The share dialog's lists: the people with access (the owner, then members with their role,
 * which the owner may change or remove) and the pending invitations (which the owner may
 * revoke). What each control does is the dialog's (share-dialog.tsx); each row shows its own
 * busy state and refusal, by the key of what is pending (share-pending.ts).
 */
import type { MemberRole } from '../../../../../events/map-access';
import type { MapMembers } from '../../../../../events/sharing-api';
import { Button } from '../../../components/ui/button';
import { formatDateTime, formatRelative } from '../../../utils/format-date';
import { PersonAvatar } from './person-avatar';
import { ROLE_LABELS } from './roles';
import { RemoveIcon } from './share-icons';
import { keyOf } from './share-pending';

interface ListProps {
  mapId: string;
  members: MapMembers;
  /** The owner (or an admin): may change who has access. */
  manager: boolean;
  busy: ReadonlySet<string>;
  /** Errors shown in place, by the key of what failed. */
  errors: Readonly<Record<string, string>>;
}

export function MembersSection({ mapId, members, myUid, manager, busy, errors, onChangeRole, onRemove }: ListProps & {
  myUid: string;
  onChangeRole(uid: string, role: MemberRole, name: string): void;
  onRemove(member: { uid: string; displayName: string }): void;
}) {
  const people = 1 + members.members.length;
  return (
      <section className="share-section" aria-labelledby={`${mapId}-people`}>
        <h3 id={`${mapId}-people`} className="share-section__title">
          People with access <span className="share-count">{people}</span>
        </h3>
        <ul className="share-people">
          <li className="share-person">
            <PersonAvatar name={members.owner.displayName} colorKey={members.owner.uid} />
            <PersonName name={members.owner.displayName} email={members.owner.email} you={members.owner.uid === myUid} />
            <span className="share-role-badge share-role-badge--owner">Owner</span>
          </li>
          {members.members.map((member) => {
            const roleKey = keyOf({ kind: 'role', uid: member.uid });
            const error = errors[roleKey] ?? errors[keyOf({ kind: 'remove', uid: member.uid })];
            return (
              <li key={member.uid} className="share-person" aria-busy={busy.has(keyOf({ kind: 'role', uid: member.uid })) || undefined}>
                <PersonAvatar name={member.displayName} colorKey={member.uid} />
                <PersonName name={member.displayName} email={member.email} you={member.uid === myUid} />
                {manager ? (
                  <div className="share-person__controls">
                    <RoleSelect
                      label={`Role of ${member.displayName}`}
                      value={member.role}
                      disabled={busy.has(keyOf({ kind: 'role', uid: member.uid }))}
                      onChange={(role) => onChangeRole(member.uid, role, member.displayName)}
                    />
                    <button
                      type="button"
                      className="share-icon-button"
                      aria-label={`Remove ${member.displayName}`}
                      title="Remove from this map"
                      onClick={() => onRemove({ uid: member.uid, displayName: member.displayName })}
                    >
                      <RemoveIcon />
                    </button>
                  </div>
                ) : (
                  <span className="share-role-badge">{ROLE_LABELS[member.role]}</span>
                )}
                {error ? (
                  <p className="share-person__error" role="alert">
                    {error}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
        {members.members.length === 0 && manager ? <p className="share-empty">Nobody else yet. Invite a colleague above: they get an e-mail with a link.</p> : null}
      </section>
  );
}

export function InvitationsSection({ mapId, members, manager, busy, errors, onRevoke }: ListProps & { onRevoke(invitationId: string, email: string): void }) {
  return (
      <section className="share-section" aria-labelledby={`${mapId}-pending`}>
        <h3 id={`${mapId}-pending`} className="share-section__title">
          Invited <span className="share-count">{members.invitations.length}</span>
        </h3>
        <ul className="share-people">
          {members.invitations.map((invitation) => {
            const key = keyOf({ kind: 'revoke', invitationId: invitation.invitationId });
            return (
              <li key={invitation.invitationId} className="share-person share-person--pending">
                <PersonAvatar name={invitation.email} colorKey={invitation.email} pending />
                <span className="share-person__name">
                  <span className="share-person__primary">{invitation.email}</span>
                  <span className="share-person__secondary">
                    {ROLE_LABELS[invitation.role]} · <time dateTime={invitation.expires} title={formatDateTime(invitation.expires)}>expires {formatRelative(invitation.expires)}</time>
                  </span>
                </span>
                {manager ? (
                  <div className="share-person__controls">
                    <Button variant="ghost" size="sm" loading={busy.has(key)} onClick={() => onRevoke(invitation.invitationId, invitation.email)} aria-label={`Revoke the invitation to ${invitation.email}`}>
                      Revoke
                    </Button>
                  </div>
                ) : (
                  <span className="share-role-badge share-role-badge--pending">Pending</span>
                )}
                {errors[key] ? (
                  <p className="share-person__error" role="alert">
                    {errors[key]}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
      </section>
  );
}

export function PersonName({ name, email, you }: { name: string; email: string; you: boolean }) {
  return (
    <span className="share-person__name">
      <span className="share-person__primary">
        {name}
        {you ? <span className="share-you"> (you)</span> : null}
      </span>
      <span className="share-person__secondary">{email}</span>
    </span>
  );
}

export function RoleSelect({ label, value, disabled, onChange }: { label: string; value: MemberRole; disabled?: boolean; onChange(role: MemberRole): void }) {
  return (
    <span className="share-select">
      <select aria-label={label} value={value} disabled={disabled} onChange={(event) => onChange(event.target.value as MemberRole)}>
        <option value="editor">{ROLE_LABELS.editor}</option>
        <option value="viewer">{ROLE_LABELS.viewer}</option>
      </select>
      <svg viewBox="0 0 20 20" width="14" height="14" aria-hidden="true" focusable="false">
        <path d="m5 7.5 5 5 5-5" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </span>
  );
}
