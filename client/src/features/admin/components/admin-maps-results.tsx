/**
 * The admin maps screen's results (admin-maps-screen.tsx): the count, the matching maps in a
 * table (title, author, state, dates), "Load more", and what went wrong with a way to retry.
 */
import { useId } from 'react';
import { Link } from 'react-router-dom';
import type { MapListItem } from '../../../../../events/read-models';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import type { ApiError } from '../../../lib/api';
import { formatDate, formatDateTime, formatRelative } from '../../../utils/format-date';
import type { StateOption } from './admin-maps-screen';
import { StateSelect } from './state-select';

export type Results =
  | { status: 'loading' }
  | { status: 'failed'; error: ApiError }
  | { status: 'ready'; items: MapListItem[]; next: string | null; total: number };

const plural = (count: number, one: string, many: string) => `${count.toLocaleString()} ${count === 1 ? one : many}`;

interface ResultsViewProps {
  results: Results;
  stateOptions: readonly StateOption[];
  mapHref(id: string): string;
  filtered: boolean;
  onRetry(): void;
  onLoadMore(): void;
  more: { loading: boolean; error: ApiError | null };
}

export function ResultsView({ results, stateOptions, mapHref, filtered, onRetry, onLoadMore, more }: ResultsViewProps) {
  const captionId = useId();

  return (
    <section className="admin-results" aria-labelledby={captionId} aria-busy={results.status === 'loading' || more.loading}>
      <div className="admin-results__head">
        <h2 id={captionId}>Maps</h2>
        {/* Announced politely whenever a search or "Load more" finishes. */}
        <p className="admin-results__count" role="status">
          {results.status === 'ready'
            ? results.total === 0
              ? 'No maps'
              : results.items.length < results.total
                ? `Showing ${results.items.length.toLocaleString()} of ${plural(results.total, 'map', 'maps')}`
                : plural(results.total, 'map', 'maps')
            : ''}
        </p>
      </div>

      {results.status === 'loading' ? (
        <div className="admin-results__loading">
          <Spinner label="Loading maps" size="lg" />
        </div>
      ) : null}

      {results.status === 'failed' ? (
        <div className="admin-results__error">
          <Alert title="Could not load the maps">{results.error.message}</Alert>
          <Button variant="secondary" onClick={onRetry}>
            Try again
          </Button>
        </div>
      ) : null}

      {results.status === 'ready' && results.items.length === 0 ? (
        <div className="card admin-results__empty">
          <h3>No maps found</h3>
          <p className="muted">{filtered ? 'No map matches these filters. Change or clear them to see more.' : 'Nobody has made a map yet.'}</p>
        </div>
      ) : null}

      {results.status === 'ready' && results.items.length > 0 ? (
        <>
          {/* Focusable so keyboard users can scroll it sideways on a narrow screen. */}
          <div className="card admin-table-wrap" role="region" aria-label="Maps table (scrolls sideways)" tabIndex={0}>
            <table className="admin-table">
              <caption className="visually-hidden">Maps matching the filters, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Author</th>
                  <th scope="col">State</th>
                  <th scope="col" className="is-number">
                    Layers
                  </th>
                  <th scope="col" className="is-number">
                    Locations
                  </th>
                  <th scope="col">Created</th>
                  <th scope="col">Edited</th>
                </tr>
              </thead>
              <tbody>
                {results.items.map((map) => {
                  return (
                    <tr key={map.id}>
                      <th scope="row" className="admin-table__title">
                        <Link to={mapHref(map.id)}>{map.title}</Link>
                      </th>
                      <td>
                        <code className="admin-table__uid" title={map.author}>
                          {map.author}
                        </code>
                      </td>
                      <td>
                        <StateSelect key={`${map.id}-${map.state}`} mapId={map.id} title={map.title} state={map.state} options={stateOptions} />
                      </td>
                      <td className="is-number">{map.metrics.layerCount}</td>
                      <td className="is-number">{map.metrics.locationCount}</td>
                      <td>
                        <time dateTime={map.created} title={formatDateTime(map.created)}>
                          {formatDate(map.created)}
                        </time>
                      </td>
                      <td>
                        <time dateTime={map.edited} title={formatDateTime(map.edited)}>
                          {formatRelative(map.edited)}
                        </time>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {more.error ? <Alert title="Could not load more maps">{more.error.message}</Alert> : null}
          {results.next ? (
            <div className="admin-results__more">
              <Button variant="secondary" onClick={onLoadMore} loading={more.loading}>
                {more.error ? 'Try loading more again' : 'Load more'}
              </Button>
            </div>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
