import { Link } from 'react-router-dom';
import { initialsOf } from '../utils/initials';
import './avatar.css';

export interface AvatarLinkProps {
  displayName: string | null | undefined;
  to: string;
  admin?: boolean;
}

/** The signed-in user's round avatar with their initials, linking to their account. */
export function AvatarLink({ displayName, to, admin = false }: AvatarLinkProps) {
  const name = displayName?.trim() || 'your account';
  return (
    // Named by hidden text rather than aria-label: a label leaving out the initials shown is one
    // a speech-input user cannot say (axe: label-content-name-mismatch).
    <Link to={to} className="avatar" title={displayName ?? undefined}>
      <span className="avatar__initials" aria-hidden="true">
        {initialsOf(displayName)}
      </span>
      <span className="visually-hidden">{`Account settings for ${name}${admin ? ' (admin)' : ''}`}</span>
      {admin ? (
        <span className="avatar__badge" aria-hidden="true" data-testid="admin-badge">
          Admin
        </span>
      ) : null}
    </Link>
  );
}
