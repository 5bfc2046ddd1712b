import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { MapDocument } from '../../../../events/map-document';
import { MAP_TITLE_MAX, MapTitle } from '../../../../events/map-title';
import type { MapDataRecord } from '../../../../events/read-models';
import { Alert } from '../../components/ui/alert';
import { Button, ButtonLink } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { PageSpinner } from '../../components/ui/spinner';
import { createMap, getMapData } from '../../features/maps/api/maps-api';
import { MapsDashboard } from '../../features/maps/components/maps-dashboard';
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

/** /maps/new: name a map, create it, open it. */
export function NewMapPage() {
  const navigate = useNavigate();
  const [title, setTitle] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = MapTitle.safeParse(title);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? 'Check the title.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { result: id } = await createMap(checked.data);
      await navigate(paths.map.to(id));
    } catch (failure) {
      setError(toApiError(failure).message);
      setBusy(false);
    }
  };

  return (
    <div className="page">
      <title>New map · Mapfold</title>
      <div className="container">
        <div className="page-header">
          <Link to={paths.maps} className="back-link">
            ← Your maps
          </Link>
          <h1>New map</h1>
          <p>Give your map a name. You can change it later.</p>
        </div>
        <form className="card narrow-form" onSubmit={(event) => void onSubmit(event)} aria-label="New map" noValidate>
          {error ? <Alert>{error}</Alert> : null}
          <TextField
            label="Title"
            name="title"
            placeholder="e.g. Head office, floor 2"
            autoComplete="off"
            maxLength={MAP_TITLE_MAX}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            disabled={busy}
          />
          <div className="narrow-form__actions">
            <ButtonLink to={paths.maps} variant="ghost">
              Cancel
            </ButtonLink>
            <Button type="submit" loading={busy}>
              Create map
            </Button>
          </div>
        </form>
      </div>
    </div>
  );
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
