/**
 * The share dialog's "Invite by email": an address and a role, checked here first (a mistyped
 * address is said at once), then sent; the server's refusal is shown under the field.
 */
import { useId, useState, type FormEvent, type Ref } from 'react';
import type { MemberRole } from '../../../../../events/map-access';
import { Button } from '../../../components/ui/button';
import { checkInviteEmail } from '../api/sharing-api';
import { ROLE_HINTS, ROLE_LABELS } from './roles';

export interface InviteFormProps {
  busy: boolean;
  /** The server's refusal of the last invitation. */
  error: string | null;
  onInvite(email: string, role: MemberRole): Promise<boolean>;
  ref: Ref<HTMLInputElement>;
}

export function InviteForm({ busy, error, onInvite, ref }: InviteFormProps) {
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

