import { Link } from 'react-router-dom';
import type { MapListItem } from '../../../../../events/read-models';
import { Button } from '../../../components/ui/button';
import { formatDate, formatDateTime, formatRelative } from '../../../utils/format-date';
import { mapStateLabel, mapStateTone } from '../map-state';
import { MapPreview } from './map-preview';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** What the badge means, on hover: live without the subscribed flag is live on its licence. */
function stateDetail(map: MapListItem): string | undefined {
  if (map.state === 0) return 'Test map: only you can see it';
  if (map.state === 1) return map.subscribed ? 'Live in a Basic slot' : 'Live with licence';
  if (map.state === 3) return 'Live in a Pro slot';
  return undefined;
}

export interface MapCardProps {
  map: MapListItem;
  href: string;
  /** The published viewer of the map (`/m/{id}`). */
  viewHref: string;
  onDelete(map: MapListItem): void;
  onCopy(map: MapListItem): void;
  /** This map is being copied. */
  copying?: boolean;
}

/** One map in the list: preview, title, state, counts, dates, and its actions. */
export function MapCard({ map, href, viewHref, onDelete, onCopy, copying = false }: MapCardProps) {
  const headingId = `map-${map.id}-title`;
  return (
    <article className="map-card card" aria-labelledby={headingId}>
      <Link to={href} className="map-card__preview" tabIndex={-1} aria-hidden="true">
        <MapPreview seed={map.id} />
      </Link>
      <div className="map-card__body">
        <div className="map-card__head">
          <h3 id={headingId} className="map-card__title">
            <Link to={href}>{map.title}</Link>
          </h3>
          <span className={`badge state-badge state-badge--${mapStateTone(map.state)}`} title={stateDetail(map)}>
            {mapStateLabel(map.state)}
          </span>
        </div>
        <p className="map-card__counts">
          {plural(map.metrics.layerCount, 'layer', 'layers')} · {plural(map.metrics.locationCount, 'location', 'locations')}
        </p>
        <dl className="map-card__dates">
          <div>
            <dt>Created</dt>
            <dd>
              <time dateTime={map.created} title={formatDateTime(map.created)}>
                {formatDate(map.created)}
              </time>
            </dd>
          </div>
          <div>
            <dt>Edited</dt>
            <dd>
              <time dateTime={map.edited} title={formatDateTime(map.edited)}>
                {formatRelative(map.edited)}
              </time>
            </dd>
          </div>
        </dl>
      </div>
      <div className="map-card__actions">
        <Link to={href} className="btn btn--secondary btn--sm" aria-label={`Open ${map.title}`}>
          Open
        </Link>
        <a href={viewHref} className="btn btn--ghost btn--sm" target="_blank" rel="noopener noreferrer" aria-label={`View ${map.title} (opens in a new tab)`}>
          View
        </a>
        <Button variant="ghost" size="sm" loading={copying} onClick={() => onCopy(map)} aria-label={`Copy ${map.title}`}>
          Copy
        </Button>
        <Button variant="ghost" size="sm" className="map-card__delete" onClick={() => onDelete(map)} aria-label={`Delete ${map.title}`}>
          Delete
        </Button>
      </div>
    </article>
  );
}
