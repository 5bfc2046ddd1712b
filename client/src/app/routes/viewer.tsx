import { useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { LogoMark } from '../../components/logo';
import { Spinner } from '../../components/ui/spinner';
import { getMapData } from '../../features/maps/api/maps-api';
import { toApiError } from '../../lib/api';
import '../layout/layout.css';

/**
 * /m/:id: the standalone map view, outside the main layout so it can fill an iframe on a
 * customer's site. The renderer arrives with the editor; for now it names the map.
 */
export function ViewerPage() {
  const { id = '' } = useParams();
  const [title, setTitle] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    getMapData(id, undefined, { signal: controller.signal }).then(
      ({ result }) => setTitle(result.title),
      (failure: unknown) => {
        if (!controller.signal.aborted) setError(toApiError(failure).message);
      },
    );
    return () => controller.abort();
  }, [id]);

  return (
    <div className="viewer">
      <title>{`${title ?? 'Map'} · Mapfold`}</title>
      <div className="viewer__center">
        {title === null && error === null ? <Spinner size="lg" label="Loading the map" /> : null}
        {title !== null ? <h1>{title}</h1> : null}
        {error !== null ? <p role="alert">{error}</p> : null}
      </div>
      <a className="viewer__credit" href="/" target="_blank" rel="noreferrer">
        <LogoMark size={18} /> Made with Mapfold
      </a>
    </div>
  );
}
