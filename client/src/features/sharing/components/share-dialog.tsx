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
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type Ref } from 'react';
import type { MemberRole } from '../../../../../events/map-access';
import { INVITATION_TTL_DAYS, type MapMembers } from '../../../../../events/sharing-api';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { toApiError } from '../../../lib/api';
import { copyText } from '../../../lib/clipboard';
import { formatDateTime, formatRelative } from '../../../utils/format-date';
import { callSharing, checkInviteEmail, getMapMembers, getMapMembersShowing } from '../api/sharing-api';
import { PersonAvatar } from './person-avatar';
import { ROLE_HINTS, ROLE_LABELS } from './roles';
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

const TOAST_MS = 4_000;

type Pending = { kind: 'invite' } | { kind: 'role' | 'remove'; uid: string } | { kind: 'revoke'; invitationId: string } | { kind: 'link' };
const keyOf = (pending: Pending) => (pending.kind === 'role' || pending.kind === 'remove' ? `${pending.kind}:${pending.uid}` : pending.kind === 'revoke' ? `revoke:${pending.invitationId}` : pending.kind);

export function ShareDialog({ open, mapId, mapTitle, myUid, onClose, onLeft }: ShareDialogProps) {
  const [members, setMembers] = useState<MapMembers | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set());
  /** Errors shown in place, by the key of what failed. */
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({});
  const [toast, setToast] = useState<string | null>(null);
  const [toRemove, setToRemove] = useState<{ uid: string; displayName: string } | null>(null);
  const [leaving, setLeaving] = useState<'asking' | 'busy' | null>(null);
  const [leaveError, setLeaveError] = useState<string | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const controller = useRef<AbortController | null>(null);

  /**
   * Reads the list again; with `shows`, only once it shows a change just made (until then, what
   * is on screen already shows it).
   */
  const refresh = useCallback(
    async (shows?: (members: MapMembers) => boolean) => {
      const signal = controller.current?.signal;
      const options = signal ? { signal } : {};
      try {
        const next = shows ? await getMapMembersShowing(mapId, shows, undefined, options) : (await getMapMembers(mapId, undefined, options)).result;
        if (next && !signal?.aborted) {
          setMembers(next);
          setLoadError(null);
        }
      } catch (error) {
        if (!signal?.aborted && !shows) setLoadError(toApiError(error).message);
      }
    },
    [mapId],
  );

  useEffect(() => {
    if (!open) return;
    controller.current = new AbortController();
    setErrors({});
    void refresh();
    return () => controller.current?.abort();
  }, [open, refresh]);

  const manager = members !== null && (members.yourRole === 'owner' || members.yourRole === null);
  // The invite field appears once the list says the person may invite: it takes focus then,
  // unless they have moved it already.
  useEffect(() => {
    if (manager && open && window.document.activeElement === closeRef.current) emailRef.current?.focus();
  }, [manager, open]);

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setToast(null), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast]);

  /**
   * Runs one change: busy while the server decides, its error in place; then the list is read
   * back once it shows the change (`change` answers how to tell).
   */
  const run = async (pending: Pending, change: () => Promise<(members: MapMembers) => boolean>, done?: string) => {
    const key = keyOf(pending);
    // The control that started it is disabled meanwhile, which takes focus from it: give it back.
    const had = window.document.activeElement instanceof HTMLElement ? window.document.activeElement : null;
    setBusy((keys) => new Set(keys).add(key));
    setErrors(({ [key]: _gone, ...rest }) => rest);
    try {
      const shows = await change();
      if (done) setToast(done);
      void refresh(shows);
      return true;
    } catch (error) {
      setErrors((current) => ({ ...current, [key]: toApiError(error).message }));
      return false;
    } finally {
      setBusy((keys) => {
        const next = new Set(keys);
        next.delete(key);
        return next;
      });
      setTimeout(() => {
        const active = window.document.activeElement;
        if (active && active !== window.document.body) return;
        if (had?.isConnected && !had.matches(':disabled')) had.focus();
        else if (emailRef.current) emailRef.current.focus();
        else closeRef.current?.focus();
      });
    }
  };

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
  const people = members ? 1 + members.members.length : 0;

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
                  <li key={member.uid} className="share-person" aria-busy={isBusy({ kind: 'role', uid: member.uid }) || undefined}>
                    <PersonAvatar name={member.displayName} colorKey={member.uid} />
                    <PersonName name={member.displayName} email={member.email} you={member.uid === myUid} />
                    {manager ? (
                      <div className="share-person__controls">
                        <RoleSelect
                          label={`Role of ${member.displayName}`}
                          value={member.role}
                          disabled={isBusy({ kind: 'role', uid: member.uid })}
                          onChange={(role) => changeRole(member.uid, role, member.displayName)}
                        />
                        <button
                          type="button"
                          className="share-icon-button"
                          aria-label={`Remove ${member.displayName}`}
                          title="Remove from this map"
                          onClick={() => setToRemove({ uid: member.uid, displayName: member.displayName })}
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
        ) : null}

        {members && members.invitations.length > 0 ? (
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
                        <Button variant="ghost" size="sm" loading={busy.has(key)} onClick={() => revoke(invitation.invitationId, invitation.email)} aria-label={`Revoke the invitation to ${invitation.email}`}>
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
        ) : null}

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

function PersonName({ name, email, you }: { name: string; email: string; you: boolean }) {
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

function RoleSelect({ label, value, disabled, onChange }: { label: string; value: MemberRole; disabled?: boolean; onChange(role: MemberRole): void }) {
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

interface InviteFormProps {
  busy: boolean;
  /** The server's refusal of the last invitation. */
  error: string | null;
  onInvite(email: string, role: MemberRole): Promise<boolean>;
  ref: Ref<HTMLInputElement>;
}

function InviteForm({ busy, error, onInvite, ref }: InviteFormProps) {
  const ids = useId();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>('editor');
  const [checkError, setCheckError] = useState<string | null>(null);
  const shown = checkError ?? error;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkInviteEmail(email);
    if (!checked.ok) {
      setCheckError(checked.message);
      return;
    }
    setCheckError(null);
    if (await onInvite(checked.email, role)) setEmail('');
  };

  return (
    <form className="share-invite" onSubmit={(event) => void submit(event)} noValidate aria-busy={busy || undefined}>
      <label className="share-invite__label" htmlFor={`${ids}-email`}>
        Invite by email
      </label>
      <div className="share-invite__row">
        <input
          ref={ref}
          id={`${ids}-email`}
          className="share-invite__email"
          type="email"
          inputMode="email"
          autoComplete="off"
          placeholder="name@company.com"
          value={email}
          disabled={busy}
          aria-invalid={shown ? true : undefined}
          aria-describedby={shown ? `${ids}-error` : `${ids}-hint`}
          onChange={(event) => {
            setEmail(event.target.value);
            setCheckError(null);
          }}
        />
        <span className="share-select share-select--invite">
          <select aria-label="Role" value={role} disabled={busy} onChange={(event) => setRole(event.target.value as MemberRole)}>
            <option value="editor">{ROLE_LABELS.editor}</option>
            <option value="viewer">{ROLE_LABELS.viewer}</option>
          </select>
          <svg viewBox="0 0 20 20" width="14" height="14" aria-hidden="true" focusable="false">
            <path d="m5 7.5 5 5 5-5" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </span>
        <Button type="submit" loading={busy} className="share-invite__submit">
          {busy ? 'Inviting…' : 'Invite'}
        </Button>
      </div>
      {shown ? (
        <p id={`${ids}-error`} className="share-invite__error" role="alert">
          {shown}
        </p>
      ) : (
        <p id={`${ids}-hint`} className="share-invite__hint">
          {ROLE_LABELS[role]}: {ROLE_HINTS[role].toLowerCase()}. They get an e-mail with a link to join.
        </p>
      )}
    </form>
  );
}

function ViewLink({ url, busy, error, onChange }: { url: string | null; busy: boolean; error: string | null; onChange(enabled: boolean): void }) {
  const ids = useId();
  const [copied, setCopied] = useState<string | null>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), 2_500);
    return () => clearTimeout(timer);
  }, [copied]);
  const on = url !== null;
  return (
    <section className="share-section share-viewlink" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`} className="share-section__title">
        Link sharing
      </h3>
      <div className="share-viewlink__row">
        <span className="share-viewlink__icon" aria-hidden="true">
          <LinkIcon />
        </span>
        <span className="share-viewlink__text">
          <span id={`${ids}-label`} className="share-person__primary">
            Anyone with the link can view
          </span>
          <span id={`${ids}-hint`} className="share-person__secondary">
            {on ? 'No account needed. Turning it off stops the link at once.' : 'Off: only the people above can open this map.'}
          </span>
        </span>
        <button
          type="button"
          role="switch"
          className="share-switch"
          aria-checked={on}
          aria-labelledby={`${ids}-label`}
          aria-describedby={`${ids}-hint`}
          disabled={busy}
          aria-busy={busy || undefined}
          onClick={() => onChange(!on)}
        >
          <span className="share-switch__thumb" />
        </button>
      </div>
      {url ? (
        <div className="share-viewlink__copy">
          <input className="share-viewlink__url" readOnly value={url} aria-label="View link" onFocus={(event) => event.currentTarget.select()} />
          <Button
            variant="secondary"
            size="sm"
            onClick={() => void copyText(url).then((ok) => setCopied(ok ? 'Link copied.' : 'Could not copy: select the link and copy it.'))}
          >
            <CopyIcon /> Copy link
          </Button>
        </div>
      ) : null}
      <p className="share-viewlink__status" role="status">
        {copied}
      </p>
      {error ? (
        <p className="share-person__error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}

const stroke = { fill: 'none', stroke: 'currentColor', strokeWidth: 1.6, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

function RemoveIcon() {
  return (
    <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" focusable="false">
      <path d="m6 6 8 8M14 6l-8 8" {...stroke} />
    </svg>
  );
}

function LinkIcon() {
  return (
    <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
      <path d="M8.5 11.5a3 3 0 0 0 4.24 0l2.5-2.5a3 3 0 0 0-4.24-4.24l-.75.75M11.5 8.5a3 3 0 0 0-4.24 0l-2.5 2.5a3 3 0 0 0 4.24 4.24l.75-.75" {...stroke} />
    </svg>
  );
}

function CopyIcon() {
  return (
    <svg viewBox="0 0 20 20" width="14" height="14" aria-hidden="true" focusable="false">
      <rect x="7" y="7" width="9" height="9" rx="2" {...stroke} />
      <path d="M13 4.5H6A1.5 1.5 0 0 0 4.5 6v7" {...stroke} />
    </svg>
  );
}

function LockIcon() {
  return (
    <svg viewBox="0 0 20 20" width="14" height="14" aria-hidden="true" focusable="false">
      <rect x="4.5" y="9" width="11" height="7.5" rx="1.5" {...stroke} />
      <path d="M7 9V6.5a3 3 0 0 1 6 0V9" {...stroke} />
    </svg>
  );
}

function CheckIcon() {
  return (
    <svg viewBox="0 0 20 20" width="14" height="14" aria-hidden="true" focusable="false">
      <path d="m4.5 10.5 3.5 3.5 7.5-8" {...stroke} strokeWidth={2} />
    </svg>
  );
}
