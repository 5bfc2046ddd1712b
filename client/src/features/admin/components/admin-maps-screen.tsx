/**
 * The admin's maps screen (spec §6: an admin loads maps by author instead of by owner): a
 * filter bar, the matching maps newest first in a table, their count, and "Load more".
 * The applied filters live in the address (`?author=…&state=1,3`), so a search can be
 * bookmarked, shared with another admin, and left with the back button.
 */
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { toApiError, type ApiError } from '../../../lib/api';
import { adminMapsQuery, emptyAdminMapsFilters, listAdminMaps, type AdminMapsFilters } from '../api/admin-maps-api';
import { ResultsView, type Results } from './admin-maps-results';
import './admin.css';

/** A map state the filter offers (spec §4), with its label and badge tone. */
export interface StateOption {
  value: number;
  label: string;
  tone: string;
}

export interface AdminMapsScreenProps {
  /** The states to filter by, in order: 0 Test, 1 Live, 2 Demo, 3 Pro, 9 Admin. */
  stateOptions: readonly StateOption[];
  /** The editor of a map (`/maps/{id}`). */
  mapHref(id: string): string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The filters the address holds; anything malformed there is left out. */
function filtersOf(params: URLSearchParams): AdminMapsFilters {
  const date = (name: string) => {
    const value = params.get(name) ?? '';
    return DATE.test(value) ? value : '';
  };
  const states = (params.get('state') ?? '')
    .split(',')
    .filter((part) => /^\d{1,3}$/.test(part))
    .map(Number);
  return { author: params.get('author') ?? '', q: params.get('q') ?? '', states: [...new Set(states)], from: date('from'), to: date('to') };
}

export function AdminMapsScreen({ stateOptions, mapHref }: AdminMapsScreenProps) {
  const [searchParams, setSearchParams] = useSearchParams();
  const query = adminMapsQuery(filtersOf(searchParams));
  // The applied filters, stable for as long as the address says the same thing.
  const applied = filtersOf(new URLSearchParams(query));
  const [results, setResults] = useState<Results>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [more, setMore] = useState<{ loading: boolean; error: ApiError | null }>({ loading: false, error: null });
  const moreController = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    moreController.current?.abort();
    setResults({ status: 'loading' });
    setMore({ loading: false, error: null });
    listAdminMaps(filtersOf(new URLSearchParams(query)), {}, undefined, { signal: controller.signal }).then(
      ({ result }) => setResults({ status: 'ready', ...result }),
      (error: unknown) => {
        if (!controller.signal.aborted) setResults({ status: 'failed', error: toApiError(error) });
      },
    );
    return () => controller.abort();
  }, [query, attempt]);

  const loadMore = useCallback(async () => {
    if (results.status !== 'ready' || !results.next || more.loading) return;
    const controller = new AbortController();
    moreController.current = controller;
    setMore({ loading: true, error: null });
    try {
      const { result } = await listAdminMaps(filtersOf(new URLSearchParams(query)), { cursor: results.next }, undefined, { signal: controller.signal });
      if (controller.signal.aborted) return;
      setResults((current) =>
        current.status === 'ready'
          ? { status: 'ready', items: [...current.items, ...result.items.filter((item) => !current.items.some((seen) => seen.id === item.id))], next: result.next, total: result.total }
          : current,
      );
      setMore({ loading: false, error: null });
    } catch (error) {
      if (!controller.signal.aborted) setMore({ loading: false, error: toApiError(error) });
    }
  }, [results, more.loading, query]);

  useEffect(() => () => moreController.current?.abort(), []);

  const apply = (filters: AdminMapsFilters) => setSearchParams(new URLSearchParams(adminMapsQuery(filters)));

  return (
    <div className="admin-maps">
      {/* Remounted when the address changes (back button), so the fields show what is applied. */}
      <FilterBar key={query} initial={applied} stateOptions={stateOptions} onApply={apply} />
      <ResultsView
        results={results}
        stateOptions={stateOptions}
        mapHref={mapHref}
        filtered={query !== ''}
        onRetry={() => setAttempt((n) => n + 1)}
        onLoadMore={() => void loadMore()}
        more={more}
      />
    </div>
  );
}

interface FilterBarProps {
  initial: AdminMapsFilters;
  stateOptions: readonly StateOption[];
  onApply(filters: AdminMapsFilters): void;
}

function FilterBar({ initial, stateOptions, onApply }: FilterBarProps) {
  const [draft, setDraft] = useState<AdminMapsFilters>(initial);
  const [dateError, setDateError] = useState<string | null>(null);
  const headingId = useId();
  const set = <K extends keyof AdminMapsFilters>(key: K, value: AdminMapsFilters[K]) => setDraft((current) => ({ ...current, [key]: value }));
  const toggleState = (value: number, checked: boolean) =>
    setDraft((current) => ({ ...current, states: checked ? [...current.states, value] : current.states.filter((state) => state !== value) }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (draft.from && draft.to && draft.to < draft.from) {
      setDateError('The end date must not be before the start date.');
      return;
    }
    setDateError(null);
    onApply(draft);
  };
  const clear = () => {
    setDraft(emptyAdminMapsFilters);
    setDateError(null);
    onApply(emptyAdminMapsFilters);
  };

  return (
    <form className="card admin-filters" role="search" aria-labelledby={headingId} onSubmit={onSubmit} noValidate>
      <h2 id={headingId} className="admin-filters__title">
        Filter maps
      </h2>
      <div className="admin-filters__grid">
        <TextField
          label="Author uid"
          name="author"
          value={draft.author}
          onChange={(event) => set('author', event.target.value)}
          autoComplete="off"
          spellCheck={false}
          hint="The exact uid of the user who made the map."
        />
        <TextField label="Title contains" name="q" type="search" value={draft.q} onChange={(event) => set('q', event.target.value)} autoComplete="off" maxLength={200} />
        <TextField label="Created from" name="from" type="date" value={draft.from} onChange={(event) => set('from', event.target.value)} max={draft.to || undefined} />
        <TextField
          label="Created to"
          name="to"
          type="date"
          value={draft.to}
          onChange={(event) => set('to', event.target.value)}
          min={draft.from || undefined}
          error={dateError}
        />
      </div>
      <fieldset className="admin-filters__states">
        <legend className="field__label">State</legend>
        <div className="admin-filters__checks">
          {stateOptions.map((option) => (
            <label key={option.value} className="admin-check">
              <input type="checkbox" name="state" value={option.value} checked={draft.states.includes(option.value)} onChange={(event) => toggleState(option.value, event.target.checked)} />
              <span>
                {option.label} <span className="admin-check__number">({option.value})</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="admin-filters__actions">
        <Button type="submit">Search</Button>
        <Button variant="ghost" onClick={clear}>
          Clear filters
        </Button>
      </div>
    </form>
  );
}
