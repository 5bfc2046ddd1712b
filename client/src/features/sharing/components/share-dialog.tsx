/**
 * "Share" in the editor (issue 16): who can open this map, in one dialog. The owner (and an
 * admin) invites people by e-mail as editors or viewers, changes a member's role, removes them,
 * revokes a pending invitation, and turns "anyone with the link can view" on or off. A member
 * sees the same people read-only and can leave the map.
 *
 * Not to be confused with the editor's Embed panel (features/editor/panels/share-panel.tsx),
 * which is about the published map's public page and the snippet for other websites.
 *
 * Every change is sent at once, shown at once, and then read back from the server (the members
 * read model, waited for until it reflects the write); a refusal is shown where it happened,
 * with the server's own words.
 */
import { useEffect, useRef, useState } from 'react';
import type { MemberRole } from '../../../../../events/map-access';
import { INVITATION_TTL_DAYS } from '../../../../../events/sharing-api';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { toApiError } from '../../../lib/api';
import { callSharing } from '../api/sharing-api';
import { InviteForm } from './invite-form';
import { CheckIcon, LockIcon } from './share-icons';
import { keyOf, type Pending } from './share-pending';
import { InvitationsSection, MembersSection } from './share-people';
import { useShareMembers } from './use-share-members';
import { ViewLink } from './view-link';
import './share-dialog.css';

export interface ShareDialogProps {
  open: boolean;
  mapId: string;
  mapTitle: string;
  /** The signed-in person's uid ("you" in the list). */
  myUid: string;
  onClose(): void;
  /** The member left the map: the page should leave the editor. */
  onLeft(): void;
}


export function ShareDialog({ open, mapId, mapTitle, myUid, onClose, onLeft }: ShareDialogProps) {
  const emailRef = useRef<HTMLInputElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const { members, setMembers, loadError, busy, errors, toast, refresh, run } = useShareMembers(mapId, open, emailRef, closeRef);
  const [toRemove, setToRemove] = useState<{ uid: string; displayName: string } | null>(null);
  const [leaving, setLeaving] = useState<'asking' | 'busy' | null>(null);
  const [leaveError, setLeaveError] = useState<string | null>(null);

  const manager = members !== null && (members.yourRole === 'owner' || members.yourRole === null);
  // The invite field appears once the list says the person may invite: it takes focus then,
  // unless they have moved it already.
  useEffect(() => {
    if (manager && open && window.document.activeElement === closeRef.current) emailRef.current?.focus();
  }, [manager, open]);

  const isBusy = (pending: Pending) => busy.has(keyOf(pending));

  const invite = (email: string, role: MemberRole) =>
    run(
      { kind: 'invite' },
      async () => {
        const { result } = await callSharing('inviteToMap', { mapId, email, role });
        // Shown at once; the read-back replaces it with the server's own entry.
        const now = new Date();
        setMembers((current) =>
          current
            ? {
                ...current,
                invitations: [
                  ...current.invitations.filter((item) => item.email !== email),
                  { invitationId: result.invitationId, email, role, invitedBy: myUid, invited: now.toISOString(), expires: new Date(now.getTime() + INVITATION_TTL_DAYS * 86_400_000).toISOString() },
                ],
              }
            : current,
        );
        return (members) => members.invitations.some((item) => item.invitationId === result.invitationId);
      },
      `Invitation sent to ${email}.`,
    );

  const changeRole = (uid: string, role: MemberRole, name: string) =>
    void run(
      { kind: 'role', uid },
      async () => {
        setMembers((current) => (current ? { ...current, members: current.members.map((member) => (member.uid === uid ? { ...member, role } : member)) } : current));
        try {
          await callSharing('setMapMemberRole', { mapId, uid, role });
          return (members) => members.members.some((member) => member.uid === uid && member.role === role);
        } catch (error) {
          await refresh();
          throw error;
        }
      },
      `${name} is now ${role === 'editor' ? 'an editor' : 'a viewer'}.`,
    );

  const remove = async () => {
    if (!toRemove) return;
    const { uid, displayName } = toRemove;
    const ok = await run(
      { kind: 'remove', uid },
      async () => {
        await callSharing('removeMapMember', { mapId, uid });
        setMembers((current) => (current ? { ...current, members: current.members.filter((member) => member.uid !== uid) } : current));
        return (members) => !members.members.some((member) => member.uid === uid);
      },
      `${displayName} no longer has access.`,
    );
    if (ok) setToRemove(null);
  };

  const revoke = (invitationId: string, email: string) =>
    void run(
      { kind: 'revoke', invitationId },
      async () => {
        await callSharing('revokeMapInvitation', { mapId, invitationId });
        setMembers((current) => (current ? { ...current, invitations: current.invitations.filter((item) => item.invitationId !== invitationId) } : current));
        return (members) => !members.invitations.some((item) => item.invitationId === invitationId);
      },
      `The invitation to ${email} no longer works.`,
    );

  const setLink = (enabled: boolean) =>
    void run(
      { kind: 'link' },
      async () => {
        const { result } = await callSharing('setMapViewLink', { mapId, enabled });
        setMembers((current) => (current ? { ...current, viewLink: result.url } : current));
        return (members) => members.viewLink === result.url;
      },
      enabled ? 'Anyone with the link can now view this map.' : 'The link no longer opens this map.',
    );

  const leave = async () => {
    setLeaving('busy');
    setLeaveError(null);
    try {
      await callSharing('leaveMap', { mapId });
      setLeaving(null);
      onLeft();
    } catch (error) {
      setLeaveError(toApiError(error).message);
      setLeaving('asking');
    }
  };

  const removeKey = toRemove ? keyOf({ kind: 'remove', uid: toRemove.uid }) : null;

  return (
    <>
      <Modal
        open={open}
        title={`Share “${mapTitle}”`}
        description={manager ? 'Invite people to edit or view this map. Only you can change who has access.' : members ? 'The people who can open this map.' : undefined}
        onClose={onClose}
        initialFocus={manager ? emailRef : closeRef}
        className="share-dialog"
        footer={
          <>
            {members && !manager ? (
              <Button variant="ghost" className="share-leave" onClick={() => setLeaving('asking')}>
                Leave map
              </Button>
            ) : (
              <p className="share-foot-note">
                <LockIcon /> Invitations expire after {INVITATION_TTL_DAYS} days.
              </p>
            )}
            <Button ref={closeRef} variant="secondary" className="share-done" onClick={onClose}>
              Done
            </Button>
          </>
        }
      >
        {manager ? <InviteForm ref={emailRef} busy={isBusy({ kind: 'invite' })} error={errors.invite ?? null} onInvite={invite} /> : null}

        {members === null && !loadError ? (
          <div className="share-loading">
            <Spinner label="Loading the people on this map" />
          </div>
        ) : null}
        {loadError ? (
          <Alert title="The people on this map could not be loaded">
            {loadError}{' '}
            <button type="button" className="share-link-button" onClick={() => void refresh()}>
              Try again
            </button>
          </Alert>
        ) : null}

        {members ? (
          <MembersSection
            mapId={mapId}
            members={members}
            myUid={myUid}
            manager={manager}
            busy={busy}
            errors={errors}
            onChangeRole={changeRole}
            onRemove={setToRemove}
          />
        ) : null}

        {members && members.invitations.length > 0 ? <InvitationsSection mapId={mapId} members={members} manager={manager} busy={busy} errors={errors} onRevoke={revoke} /> : null}

        {members && manager ? <ViewLink url={members.viewLink} busy={isBusy({ kind: 'link' })} error={errors.link ?? null} onChange={setLink} /> : null}

        <div className="share-toast" role="status" aria-live="polite">
          {toast ? (
            <span>
              <CheckIcon /> {toast}
            </span>
          ) : null}
        </div>
      </Modal>

      <ConfirmDialog
        open={toRemove !== null}
        title={`Remove ${toRemove?.displayName ?? ''}?`}
        confirmLabel="Remove"
        busy={removeKey !== null && busy.has(removeKey)}
        error={removeKey ? errors[removeKey] ?? null : null}
        onConfirm={() => void remove()}
        onCancel={() => setToRemove(null)}
      >
        <p>They lose access to “{mapTitle}” at once, also in an editor they have open. You can invite them again later.</p>
      </ConfirmDialog>

      <ConfirmDialog
        open={leaving !== null}
        title={`Leave “${mapTitle}”?`}
        confirmLabel="Leave map"
        busy={leaving === 'busy'}
        error={leaveError}
        onConfirm={() => void leave()}
        onCancel={() => {
          setLeaving(null);
          setLeaveError(null);
        }}
      >
        <p>You will no longer be able to open this map. Its owner can invite you again.</p>
      </ConfirmDialog>
    </>
  );
}
