import { useState } from 'react';
import { Link } from 'react-router-dom';
import { FREE_TEST_SLOTS, usesTestSlot } from '../../../../../events/map-states';
import type { Principal } from '../../../../../events/principal';
import type { MapListItem } from '../../../../../events/read-models';
import { Alert } from '../../../components/ui/alert';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Spinner } from '../../../components/ui/spinner';
import { toApiError } from '../../../lib/api';
import { useLiveClient } from '../../../lib/live';
import { paths } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { useBilling } from '../../../lib/use-billing';
import { copyMap, deleteMap } from '../api/maps-api';
import { useMapsList } from '../hooks/use-maps-list';
import { CreateMapForm, LIST_CATCH_UP_TIMEOUT_MS } from './create-map-form';
import { LicenceGuide } from './licence-guide';
import { MapCard } from './map-card';
import { SlotSummary } from './slot-summary';
import { UnpublishNotices } from './unpublish-notices';
import './maps.css';

export interface MapsDashboardProps {
  user: Principal;
  /** Where a map opens, e.g. `/maps/{id}`. */
  mapHref(id: string): string;
  /** Where its published viewer is, e.g. `/m/{id}`. */
  viewHref(id: string): string;
  subscribeHref: string;
}

/** The user's maps, kept live over the websocket: create, list, open, view, copy, delete. */
export function MapsDashboard({ user, mapHref, viewHref, subscribeHref }: MapsDashboardProps) {
  const live = useLiveClient();
  const { topic, maps: liveMaps, error, connection } = useMapsList(user.uid);
  // Until the live topic's first snapshot, the list the session loaded when it started.
  const session = useSession();
  const maps = liveMaps ?? (session.loaded ? session.maps : undefined);
  // Slots and the maps the server unpublished when slots shrank (spec §4).
  const { billing } = useBilling(user.uid);
  const [toDelete, setToDelete] = useState<MapListItem | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  // Maps being copied (several cards may be copying at once).
  const [copying, setCopying] = useState<ReadonlySet<string>>(() => new Set());
  const [copyError, setCopyError] = useState<string | null>(null);

  // The copy appears in the list by itself (the live topic); the card spins until it does.
  const copy = async (map: MapListItem) => {
    if (copying.has(map.id)) return;
    setCopying((ids) => new Set(ids).add(map.id));
    setCopyError(null);
    try {
      const { position } = await copyMap(map);
      if (position) await live.reached(topic, position, { signal: AbortSignal.timeout(LIST_CATCH_UP_TIMEOUT_MS) }).catch(() => undefined);
    } catch (failure) {
      setCopyError(`“${map.title}” could not be copied: ${toApiError(failure).message}`);
    } finally {
      setCopying((ids) => {
        const next = new Set(ids);
        next.delete(map.id);
        return next;
      });
    }
  };

  const testMaps = maps?.filter((map) => usesTestSlot(map.state)).length ?? 0;
  const slotsFull = !user.admin && testMaps >= FREE_TEST_SLOTS;

  const closeDialog = () => {
    setToDelete(null);
    setDeleteError(null);
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    setDeleting(true);
    setDeleteError(null);
    try {
      const { position } = await deleteMap(toDelete.id);
      if (position) await live.reached(topic, position, { signal: AbortSignal.timeout(LIST_CATCH_UP_TIMEOUT_MS) }).catch(() => undefined);
      closeDialog();
    } catch (failure) {
      setDeleteError(toApiError(failure).message);
    } finally {
      setDeleting(false);
    }
  };

  return (
    <div className="maps-dashboard">
      <LicenceGuide hasMaps={maps ? maps.length > 0 : undefined} newMapHref={paths.newMap} />
      {billing ? <UnpublishNotices notices={billing.notices} /> : null}
      <section className="maps-toolbar card">
        <CreateMapForm topic={topic} />
        <SlotSummary slots={billing?.slots} admin={user.admin} testMaps={maps ? testMaps : undefined} subscribeHref={subscribeHref} />
        {slotsFull ? (
          <p className="maps-toolbar__note">
            Both free test maps are in use. <Link to={subscribeHref}>Subscribe</Link> to publish more maps, or delete a test map.
          </p>
        ) : null}
      </section>

      <div className="maps-list-head">
        <h2>
          All maps{maps ? <span className="maps-list-head__count"> {maps.length}</span> : null}
        </h2>
        {maps !== undefined && connection !== 'open' ? (
          <span className="badge reconnecting" role="status">
            <Spinner size="sm" label="" /> Reconnecting…
          </span>
        ) : null}
      </div>

      {error ? <Alert title="Your maps could not be loaded">{error.message}</Alert> : null}
      {copyError ? <Alert>{copyError}</Alert> : null}

      {maps === undefined && !error ? (
        <div className="maps-loading">
          <Spinner size="lg" label="Loading your maps" />
          {connection !== 'open' ? <p className="muted">Connecting…</p> : null}
        </div>
      ) : null}

      {maps && maps.length === 0 ? (
        <div className="maps-empty card">
          <svg width="56" height="56" viewBox="0 0 56 56" aria-hidden="true" focusable="false">
            <rect width="56" height="56" rx="16" fill="var(--color-primary-soft)" />
            <path d="M14 19.5 23 16.5v21l-9 3z" fill="#c7ccff" />
            <path d="M23 16.5 33 19.5v21l-10-3z" fill="#a5adff" />
            <path d="M33 19.5 42 16.5v21l-9 3z" fill="#c7ccff" />
          </svg>
          <h3>No maps yet</h3>
          <p className="muted">
            Give your first map a name above and press Create. You have {FREE_TEST_SLOTS} free test maps to try everything before you
            subscribe.
          </p>
        </div>
      ) : null}

      {maps && maps.length > 0 ? (
        <ul className="maps-grid" aria-label="Your maps">
          {maps.map((map) => (
            <li key={map.id}>
              <MapCard
                map={map}
                href={mapHref(map.id)}
                viewHref={viewHref(map.id)}
                onDelete={setToDelete}
                onCopy={(chosen) => void copy(chosen)}
                copying={copying.has(map.id)}
              />
            </li>
          ))}
        </ul>
      ) : null}

      <ConfirmDialog
        open={toDelete !== null}
        title={`Delete “${toDelete?.title ?? ''}”?`}
        confirmLabel="Delete map"
        busy={deleting}
        error={deleteError}
        onConfirm={() => void confirmDelete()}
        onCancel={closeDialog}
      >
        <p>The map and its data will be deleted. This cannot be undone.</p>
      </ConfirmDialog>
    </div>
  );
}
