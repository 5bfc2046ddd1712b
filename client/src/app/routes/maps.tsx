import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { MapDocument } from '../../../../events/map-document';
import type { MapDataRecord } from '../../../../events/read-models';
import { Alert } from '../../components/ui/alert';
import { ButtonLink } from '../../components/ui/button';
import { PageSpinner } from '../../components/ui/spinner';
import { getMapData } from '../../features/maps/api/maps-api';
import { MapsDashboard } from '../../features/maps/components/maps-dashboard';
import { NewMapScreen } from '../../features/new-map/new-map-page';
import { toApiError, type ApiError } from '../../lib/api';
import { useSession } from '../../lib/session';
import { paths } from '../paths';

/** /maps: the signed-in user's maps, live. */
export function MapsPage() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <div className="page">
      <title>Your maps · Mapfold</title>
      <div className="container">
        <div className="page-header">
          <h1>Your maps</h1>
          <p>Build, publish and manage your interactive maps.</p>
        </div>
        <MapsDashboard user={user} mapHref={paths.map.to} subscribeHref={paths.subscribe} />
      </div>
    </div>
  );
}

/** /maps/new: a title and a starting point (blank, an upload, a built-in map), then the new map. */
export function NewMapPage() {
  return <NewMapScreen mapHref={paths.map.to} backHref={paths.maps} />;
}

type Loaded = { status: 'loading' } | { status: 'ready'; record: MapDataRecord } | { status: 'failed'; error: ApiError };

/** /maps/:id: the map editor. For now, the map's title and what it holds. */
export function MapPage() {
  const { id = '' } = useParams();
  const [state, setState] = useState<Loaded>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    getMapData(id, undefined, { signal: controller.signal }).then(
      ({ result }) => setState({ status: 'ready', record: result }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'failed', error: toApiError(error) });
      },
    );
    return () => controller.abort();
  }, [id]);

  if (state.status === 'loading') return <PageSpinner label="Loading the map" />;

  if (state.status === 'failed') {
    const { error } = state;
    return (
      <div className="page">
        <title>Map · Mapfold</title>
        <div className="container narrow">
          <h1>{error.code === 'not-found' ? 'Map not found' : 'This map could not be opened'}</h1>
          <Alert>{error.message}</Alert>
          <div className="simple-actions">
            {error.code === 'unauthenticated' ? (
              <ButtonLink to={paths.login} state={{ from: { pathname: paths.map.to(id), search: '', hash: '' } }}>
                Log in
              </ButtonLink>
            ) : null}
            <ButtonLink to={paths.maps} variant="secondary">
              Your maps
            </ButtonLink>
          </div>
        </div>
      </div>
    );
  }

  const { record } = state;
  const document = MapDocument.safeParse(record.data);
  return (
    <div className="page">
      <title>{`${record.title} · Mapfold`}</title>
      <div className="container">
        <div className="page-header">
          <Link to={paths.maps} className="back-link">
            ← Your maps
          </Link>
          <h1>{record.title}</h1>
          {document.success ? (
            <p>
              {document.data.layers.length} {document.data.layers.length === 1 ? 'layer' : 'layers'} · {document.data.locations.length}{' '}
              {document.data.locations.length === 1 ? 'location' : 'locations'}
            </p>
          ) : null}
        </div>
        <Alert tone="info" title="The editor is coming soon">
          Drawing layers and placing locations arrives in the next release. Your map is saved and ready for it.
        </Alert>
      </div>
    </div>
  );
}
