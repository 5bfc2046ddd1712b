import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { MapDocument } from '../../../../events/map-document';
import { copyTitleOf } from '../../../../events/map-title';
import { Button } from '../../components/ui/button';
import { api, toApiError } from '../../lib/api';

/** Exploring someone else's map: what happens to the edits, and how to keep them. */
export function ExploreBanner({ signedIn, title, document, registerHref, mapHref }: { signedIn: boolean; title: string; document: MapDocument; registerHref: string; mapHref: (id: string) => string }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const copy = async () => {
    setBusy(true);
    setError(null);
    try {
      const { result } = await api.callFunction('createMap', { title: copyTitleOf(title), mapData: document });
      navigate(mapHref(result));
    } catch (failure) {
      setError(toApiError(failure).message);
      setBusy(false);
    }
  };
  return (
    <div className="ed-explore" role="note">
      <p>
        <strong>You are exploring {title}.</strong> Try anything: your changes stay in this tab and are not saved.
      </p>
      {signedIn ? (
        <Button size="sm" loading={busy} onClick={() => void copy()}>
          Save a copy to my maps
        </Button>
      ) : (
        <Link className="btn btn--primary btn--sm" to={registerHref}>
          Sign up to save your own maps
        </Link>
      )}
      {error ? <p className="ed-explore__error">{error}</p> : null}
    </div>
  );
}
