/**
 * The editor bar's "Share" button and the dialog it opens (share-dialog.tsx). The app gives
 * it to the editor (features do not import each other); leaving the map goes back to /maps.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { ShareDialog } from './share-dialog';
import './share-button.css';

export interface ShareButtonProps {
  mapId: string;
  mapTitle: string;
}

export function ShareButton({ mapId, mapTitle }: ShareButtonProps) {
  const [open, setOpen] = useState(false);
  const { user } = useSession();
  const navigate = useNavigate();
  if (!user) return null;
  return (
    <>
      <button type="button" className="share-button" aria-haspopup="dialog" aria-expanded={open} onClick={() => setOpen(true)}>
        <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" focusable="false">
          <circle cx="8" cy="7" r="3" fill="none" stroke="currentColor" strokeWidth="1.7" />
          <path d="M2.5 16.5c.6-2.9 2.8-4.5 5.5-4.5s4.9 1.6 5.5 4.5M15.5 6.5v5M13 9h5" fill="none" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" />
        </svg>
        <span className="share-button__label">Share</span>
      </button>
      <ShareDialog
        open={open}
        mapId={mapId}
        mapTitle={mapTitle}
        myUid={user.uid}
        onClose={() => setOpen(false)}
        onLeft={() => {
          setOpen(false);
          void navigate(paths.maps, { replace: true });
        }}
      />
    </>
  );
}
