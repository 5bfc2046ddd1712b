/**
 * Why the editor is read-only, said above the map: a viewer may look but not change (and who
 * to ask), and a member removed while the map was open has lost access (and where to go now).
 */
import { Link } from 'react-router-dom';
import type { EditorAccess } from './use-editor-map';
import './access-banner.css';

export interface AccessBannerProps {
  access: EditorAccess;
  /** The owner's name; "its owner" when not known. */
  ownerName: string | null;
  mapsHref: string;
}

export function AccessBanner({ access, ownerName, mapsHref }: AccessBannerProps) {
  if (access === 'viewer') {
    return (
      <div className="ed-access" role="note" data-access="viewer">
        <EyeIcon />
        <p>
          <strong>View only.</strong> You can view this map. Ask {ownerName?.trim() || 'its owner'} to make you an editor to change it.
        </p>
      </div>
    );
  }
  if (access === 'removed') {
    return (
      <div className="ed-access" role="alert" data-access="removed">
        <LockIcon />
        <p>
          <strong>You no longer have access to this map.</strong> Its owner removed you; what you see is how it was, and nothing you do here is saved.
        </p>
        <Link className="btn btn--secondary btn--sm" to={mapsHref}>
          Back to your maps
        </Link>
      </div>
    );
  }
  return null;
}

const stroke = { fill: 'none', stroke: 'currentColor', strokeWidth: 1.6, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

function EyeIcon() {
  return (
    <svg className="ed-access__icon" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
      <path d="M1.75 10S4.75 4.5 10 4.5 18.25 10 18.25 10 15.25 15.5 10 15.5 1.75 10 1.75 10Z" {...stroke} />
      <circle cx="10" cy="10" r="2.5" {...stroke} />
    </svg>
  );
}

function LockIcon() {
  return (
    <svg className="ed-access__icon" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
      <rect x="4.5" y="9" width="11" height="7.5" rx="1.5" {...stroke} />
      <path d="M7 9V6.5a3 3 0 0 1 6 0V9" {...stroke} />
    </svg>
  );
}
