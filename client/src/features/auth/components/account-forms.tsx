/**
 * The account settings (/account): display name, password, signing out everywhere and deleting
 * the account. Each shows its progress (a busy, disabled button) and its outcome (a status
 * message, or the server's error as an alert).
 */
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextField } from '../../../components/ui/field';
import { toApiError } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { authApi } from '../api/auth-api';
import { fieldErrorOf } from './field-error';
import { NewPasswordField } from './new-password-field';
import './account.css';

export const DISPLAY_NAME_MAX_LENGTH = 80;

type Outcome = { tone: 'success'; message: string } | { tone: 'error'; message: string } | null;

function OutcomeMessage({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  return <Alert tone={outcome.tone}>{outcome.message}</Alert>;
}

export function DisplayNameForm() {
  const { user, setUser } = useSession();
  const [displayName, setDisplayName] = useState(user?.displayName ?? '');
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const unchanged = displayName.trim() === (user?.displayName ?? '');

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaving(true);
    setOutcome(null);
    try {
      const updated = await authApi().updateProfile(displayName.trim());
      setUser(updated);
      setDisplayName(updated.displayName);
      setOutcome({ tone: 'success', message: 'Your display name is saved.' });
    } catch (failure) {
      const message = toApiError(failure).message;
      setOutcome({ tone: 'error', message: fieldErrorOf(message, ['displayName'] as const)?.text ?? message });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="account-form" onSubmit={(event) => void onSubmit(event)} aria-label="Change display name">
      <TextField
        label="Display name"
        name="displayName"
        autoComplete="name"
        required
        maxLength={DISPLAY_NAME_MAX_LENGTH}
        value={displayName}
        onChange={(e) => setDisplayName(e.target.value)}
        disabled={saving}
        hint="Shown on your avatar and to people you share maps with."
      />
      <OutcomeMessage outcome={outcome} />
      <div className="account-form__actions">
        <Button type="submit" loading={saving} disabled={unchanged || displayName.trim() === ''}>
          Save name
        </Button>
      </div>
    </form>
  );
}

/** Local accounts only: the current password and a new one (other sessions are signed out). */
export function ChangePasswordForm() {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaving(true);
    setOutcome(null);
    try {
      await authApi().changePassword(currentPassword, newPassword);
      setCurrentPassword('');
      setNewPassword('');
      setOutcome({ tone: 'success', message: 'Your password is changed. Your other devices were signed out.' });
    } catch (failure) {
      const message = toApiError(failure).message;
      setOutcome({ tone: 'error', message: fieldErrorOf(message, ['currentPassword', 'newPassword'] as const)?.text ?? message });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="account-form" onSubmit={(event) => void onSubmit(event)} aria-label="Change password">
      <TextField
        label="Current password"
        type="password"
        name="currentPassword"
        autoComplete="current-password"
        required
        value={currentPassword}
        onChange={(e) => setCurrentPassword(e.target.value)}
        disabled={saving}
      />
      <NewPasswordField
        label="New password"
        name="newPassword"
        value={newPassword}
        onChange={(e) => setNewPassword(e.target.value)}
        disabled={saving}
      />
      <OutcomeMessage outcome={outcome} />
      <div className="account-form__actions">
        <Button type="submit" loading={saving}>
          Change password
        </Button>
      </div>
    </form>
  );
}

/** Signs out every session of the account, this one included; then `onSignedOut`. */
export function SignOutEverywhere({ onSignedOut }: { onSignedOut: () => Promise<void> | void }) {
  const { endSession } = useSession();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await authApi().signOutEverywhere();
    } catch (failure) {
      setError(toApiError(failure).message);
      setBusy(false);
      return;
    }
    await onSignedOut();
    await endSession();
  };

  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        Sign out everywhere
      </Button>
      <ConfirmDialog
        open={open}
        title="Sign out everywhere?"
        confirmLabel="Sign out everywhere"
        tone="primary"
        busy={busy}
        error={error}
        onConfirm={() => void confirm()}
        onCancel={() => {
          setOpen(false);
          setError(null);
        }}
      >
        <p>Every browser and device signed in to your account is signed out, this one included. You can log in again at once.</p>
      </ConfirmDialog>
    </>
  );
}

/**
 * Deletes the account and its maps after a confirmation that asks for the password (local
 * accounts; Clerk accounts confirm without one); then `onDeleted`.
 */
export function DeleteAccount({ onDeleted }: { onDeleted: () => Promise<void> | void }) {
  const { mode, endSession } = useSession();
  const needsPassword = mode === 'local';
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    setOpen(false);
    setPassword('');
    setError(null);
  };

  const confirm = async () => {
    if (needsPassword && password === '') {
      setError('Enter your password to confirm.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await authApi().deleteAccount(needsPassword ? password : null);
    } catch (failure) {
      setError(toApiError(failure).message);
      setBusy(false);
      return;
    }
    await onDeleted();
    await endSession();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && !busy) {
      event.preventDefault();
      void confirm();
    }
  };

  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        Delete account
      </Button>
      <ConfirmDialog open={open} title="Delete your account?" confirmLabel="Delete account" busy={busy} error={error} onConfirm={() => void confirm()} onCancel={close}>
        <p>Your account and all your maps are deleted for good. Published maps stop working. This cannot be undone.</p>
        {needsPassword ? (
          <TextField
            label="Your password"
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            onKeyDown={onKeyDown}
            disabled={busy}
            className="dialog__field"
          />
        ) : null}
      </ConfirmDialog>
    </>
  );
}
