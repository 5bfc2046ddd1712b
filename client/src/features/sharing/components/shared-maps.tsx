/**
 * "Shared with me" on /maps (issue 16): the maps others invited the person to, newest edit
 * first, each with its owner and the person's role, opening in the editor. Apart from the
 * person's own maps: shared maps never count against their slots or test maps.
 *
 * Read when the page opens and again when the tab comes back to the front (an invitation
 * accepted in another tab, a role changed meanwhile).
 */
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { SharedMapItem } from '../../../../../events/sharing-api';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { toApiError } from '../../../lib/api';
import { formatDateTime, formatRelative } from '../../../utils/format-date';
import { getSharedMaps } from '../api/sharing-api';
import { PersonAvatar } from './person-avatar';
import { ROLE_LABELS } from './roles';
import './shared-maps.css';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export function SharedMaps({ mapHref }: { mapHref(id: string): string }) {
  const [maps, setMaps] = useState<SharedMapItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async (signal?: AbortSignal) => {
    try {
      const { result } = await getSharedMaps(undefined, signal ? { signal } : {});
      if (signal?.aborted) return;
      setMaps(result);
      setError(null);
    } catch (failure) {
      if (!signal?.aborted) setError(toApiError(failure).message);
    }
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void load(controller.signal);
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      controller.abort();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [load]);

  return (
    <section className="shared-maps" aria-labelledby="shared-maps-title">
      <div className="shared-maps__head">
        <h2 id="shared-maps-title">
          Shared with me{maps ? <span className="shared-maps__count"> {maps.length}</span> : null}
        </h2>
      </div>
      {error ? (
        <Alert title="The maps shared with you could not be loaded">
          {error}{' '}
          <button type="button" className="shared-maps__retry" onClick={() => void load()}>
            Try again
          </button>
        </Alert>
      ) : null}
      {maps === null && !error ? (
        <div className="shared-maps__loading">
          <Spinner label="Loading the maps shared with you" />
        </div>
      ) : null}
      {maps && maps.length === 0 ? (
        <div className="shared-maps__empty">
          <svg width="40" height="40" viewBox="0 0 40 40" aria-hidden="true" focusable="false">
            <rect width="40" height="40" rx="12" fill="var(--color-primary-soft)" />
            <circle cx="16" cy="16" r="4.5" fill="none" stroke="#7c86ff" strokeWidth="2" />
            <path d="M8.5 29c.9-4.2 3.9-6.5 7.5-6.5s6.6 2.3 7.5 6.5M27 14v8M23 18h8" fill="none" stroke="#7c86ff" strokeWidth="2" strokeLinecap="round" />
          </svg>
          <div>
            <p className="shared-maps__empty-title">Nothing shared with you yet</p>
            <p className="muted">When someone invites you to their map, it appears here. Shared maps never use your slots or test maps.</p>
          </div>
        </div>
      ) : null}
      {maps && maps.length > 0 ? (
        <ul className="shared-maps__grid" aria-label="Maps shared with you">
          {maps.map((map) => (
            <li key={map.id}>
              <SharedMapCard map={map} href={mapHref(map.id)} />
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function SharedMapCard({ map, href }: { map: SharedMapItem; href: string }) {
  const headingId = `shared-${map.id}-title`;
  const verb = map.role === 'viewer' ? 'View' : 'Open';
  return (
    <article className="shared-card card" aria-labelledby={headingId}>
      <div className="shared-card__head">
        <h3 id={headingId} className="shared-card__title">
          <Link to={href}>{map.title}</Link>
        </h3>
        <span className={`badge shared-card__role shared-card__role--${map.role}`}>{ROLE_LABELS[map.role]}</span>
      </div>
      <p className="shared-card__owner">
        <PersonAvatar name={map.owner.displayName} colorKey={map.owner.uid} />
        <span>
          <span className="shared-card__owner-label">Owner</span> {map.owner.displayName}
        </span>
      </p>
      <p className="shared-card__meta">
        {plural(map.metrics.layerCount, 'floor', 'floors')} · {plural(map.metrics.locationCount, 'location', 'locations')} · edited{' '}
        <time dateTime={map.edited} title={formatDateTime(map.edited)}>
          {formatRelative(map.edited)}
        </time>
      </p>
      <div className="shared-card__actions">
        <Link to={href} className="btn btn--secondary btn--sm" aria-label={`${verb} ${map.title}`}>
          {verb}
        </Link>
      </div>
    </article>
  );
}
