/**
 * The sidebar directory: search (accents and case do not matter), group filter chips, and the
 * list of locations. Long lists render only the rows in view; the server's page adds the whole
 * list in `<noscript>` for browsers without JavaScript (with it, that is one piece of inert
 * text: nothing to lay out or hydrate).
 */
import { useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { inDirectoryOrder } from '../../../../events/directory-order';
import type { Group, Location } from '../../components/map/types';
import { useTranslator } from '../../i18n/i18n-context';
import { stopEarlyChips } from './early-chips';
import { Icon } from './icons';

const ROW_HEIGHT = 60;
const VIRTUAL_FROM = 150;
/**
 * The `<noscript>` list stops here: a 25,000-store map's page must not carry megabytes of rows
 * (without JavaScript the first ones are listed, and how many more there are).
 */
const NOSCRIPT_ROWS = 500;

export interface DirectoryProps {
  title: string;
  /** How many locations the map shows in all. */
  total: number;
  /** The map's locations (hidden ones are left out here), listed in the directory's order. */
  locations: readonly Location[];
  /** The shown locations' indices in that order, as the server sorted them (events/directory-order.ts). */
  order?: readonly number[] | undefined;
  /** The ids the search and filters let through; null: all. */
  matching: ReadonlySet<string> | null;
  groups: readonly Group[];
  groupColors: ReadonlyMap<string, string>;
  accent: string;
  /** Layer names by id, when the map has more than one layer. */
  layerNames: ReadonlyMap<string, string> | null;
  search: boolean;
  filters: boolean;
  query: string;
  onQuery: (query: string) => void;
  activeGroups: ReadonlySet<string>;
  onToggleGroup: (id: string) => void;
  onClear: () => void;
  selectedId: string | null;
  onPick: (id: string, opener: HTMLElement) => void;
  /** Buttons beside the title (share, close on phones). */
  actions?: ReactNode;
  /** The store locator's list: the locations nearest first (through the filters), with their distances. */
  nearest?: { locations: readonly Location[]; distances: ReadonlyMap<string, string> } | null;
  /** The store locator's control ("Find the nearest"), on maps with a geographic floor. */
  nearPanel?: ReactNode;
}

export function Directory(props: DirectoryProps) {
  const { groups, groupColors, accent, layerNames, query, activeGroups, selectedId, matching } = props;
  const { t, locale } = useTranslator();
  // Sorted here, in the chunk that hydrates after the map (hydrated-later.ts): neither the
  // sorting nor its code is on the way to the map's first render.
  const sorted = useMemo(() => inDirectoryOrder(props.locations, locale, props.order), [props.locations, locale, props.order]);
  const nearest = props.nearest;
  const locations = useMemo(() => nearest?.locations ?? (matching ? sorted.filter((location) => matching.has(location.id)) : sorted), [nearest, sorted, matching]);
  const filtering = query.trim() !== '' || activeGroups.size > 0;
  const listRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const chipsRef = useRef<HTMLDivElement>(null);
  const chipsTaken = useRef(false);
  const [window_, setWindow] = useState({ top: 0, height: 800 });
  const virtual = locations.length > VIRTUAL_FROM;

  // Text typed into the server's search box before this chunk hydrated stays in the box but
  // never reached onChange (React does not replay it): take it up once, so the list follows
  // what the visitor sees in the box.
  useLayoutEffect(() => {
    const typed = searchRef.current?.value;
    if (typed !== undefined && typed !== query) props.onQuery(typed);
    // Only at hydration: later the box is controlled and onChange carries every change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Group chips pressed before this chunk hydrated: the page's early listener flipped them
  // (early-chips.ts), React kept the server's aria-pressed; their filters apply now, once (not
  // again in StrictMode's second run), and from here on React handles the chips.
  useLayoutEffect(() => {
    stopEarlyChips();
    if (chipsTaken.current) return;
    chipsTaken.current = true;
    chipsRef.current?.querySelectorAll('.mf-chip').forEach((chip, i) => {
      const id = groups[i]?.id;
      if (id && (chip.getAttribute('aria-pressed') === 'true') !== activeGroups.has(id)) props.onToggleGroup(id);
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list || !virtual) return;
    let frame = 0;
    const update = () => {
      frame = 0;
      setWindow({ top: list.scrollTop, height: list.clientHeight || 800 });
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    // Measured in the next frame, not now: reading the height here would force a layout of
    // the whole page before its first paint.
    onScroll();
    list.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      list.removeEventListener('scroll', onScroll);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [virtual]);

  const start = virtual ? Math.max(0, Math.floor(window_.top / ROW_HEIGHT) - 5) : 0;
  const end = virtual ? Math.min(locations.length, Math.ceil((window_.top + window_.height) / ROW_HEIGHT) + 5) : locations.length;
  const shown = locations.slice(start, end);
  const markColor = (location: Location) => location.color ?? (location.groups[0] ? groupColors.get(location.groups[0]) : undefined) ?? accent;
  const subtitle = (location: Location) => {
    const groupNames = location.groups.map((id) => groups.find((g) => g.id === id)?.name).filter(Boolean).join(t('viewer.comma'));
    return [groupNames, layerNames?.get(location.layer)].filter(Boolean).join(' · ') || location.about;
  };
  const resultText = filtering ? t('viewer.resultCount', { shown: locations.length, total: props.total }) : t('viewer.locationCount', { count: props.total });

  return (
    <div className="mf-directory">
      <div className="mf-directory__head">
        <div className="mf-directory__titles">
          <h1 className="mf-directory__title">{props.title}</h1>
          <p className="mf-directory__count" aria-live="polite">
            {resultText}
          </p>
        </div>
        {props.actions}
      </div>
      {props.search ? (
        <div className="mf-search">
          <Icon name="search" size={17} />
          <input
            ref={searchRef}
            type="search"
            className="mf-search__input"
            placeholder={t('viewer.searchLocations')}
            aria-label={t('viewer.searchLocations')}
            value={query}
            onChange={(event) => props.onQuery(event.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        </div>
      ) : null}
      {props.nearPanel}
      {props.filters && groups.length > 0 ? (
        <div ref={chipsRef} className="mf-chips" role="group" aria-label={t('viewer.filterByGroup')}>
          {groups.map((group) => (
            <button
              key={group.id}
              type="button"
              className="mf-chip"
              aria-pressed={activeGroups.has(group.id)}
              style={{ ['--mf-chip' as string]: group.color }}
              onClick={() => props.onToggleGroup(group.id)}
            >
              <span className="mf-chip__dot" aria-hidden="true" />
              {group.name}
            </button>
          ))}
        </div>
      ) : null}
      <div ref={listRef} className="mf-directory__list">
        {locations.length === 0 ? (
          <div className="mf-empty">
            <p className="mf-empty__title">{t('viewer.noResults')}</p>
            {nearest && !filtering ? (
              <p>{t('viewer.nearNone')}</p>
            ) : (
              <>
                <p>{query.trim() ? t('viewer.nothingMatches', { query: query.trim() }) : t('viewer.noneInGroups')}</p>
                <button type="button" className="mf-button" onClick={props.onClear}>
                  {t('viewer.clearFilters')}
                </button>
              </>
            )}
          </div>
        ) : (
          <ul
            className={virtual ? 'mf-list mf-list--virtual' : 'mf-list'}
            aria-label={t('viewer.locations')}
            style={virtual ? { height: locations.length * ROW_HEIGHT, position: 'relative' } : undefined}
          >
            {shown.map((location, index) => {
              const color = markColor(location);
              return (
                <li
                  key={location.id}
                  style={virtual ? { position: 'absolute', top: (start + index) * ROW_HEIGHT, left: 0, right: 0, height: ROW_HEIGHT } : undefined}
                >
                  <button
                    type="button"
                    className="mf-item"
                    aria-current={location.id === selectedId ? 'true' : undefined}
                    onClick={(event) => props.onPick(location.id, event.currentTarget)}
                  >
                    {location.thumbnail ? (
                      <img className="mf-item__thumb" src={location.thumbnail} alt="" loading="lazy" />
                    ) : (
                      <span className="mf-item__mark" style={{ ['--mf-mark' as string]: color }} aria-hidden="true" />
                    )}
                    <span className="mf-item__text">
                      <span className="mf-item__title">{location.title}</span>
                      <span className="mf-item__sub">{subtitle(location)}</span>
                    </span>
                    {nearest ? <span className="mf-item__distance">{nearest.distances.get(location.id)}</span> : null}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        {virtual ? (
          <noscript>
            <ul className="mf-list mf-list--long" aria-label={t('viewer.locations')}>
              {locations.slice(0, NOSCRIPT_ROWS).map((location) => (
                <li key={location.id}>
                  <div className="mf-item">
                    <span className="mf-item__mark" style={{ ['--mf-mark' as string]: markColor(location) }} aria-hidden="true" />
                    <span className="mf-item__text">
                      <span className="mf-item__title">{location.title}</span>
                      <span className="mf-item__sub">{subtitle(location)}</span>
                    </span>
                  </div>
                </li>
              ))}
              {locations.length > NOSCRIPT_ROWS ? <li className="mf-item">{t('viewer.andMore', { count: locations.length - NOSCRIPT_ROWS })}</li> : null}
            </ul>
          </noscript>
        ) : null}
      </div>
    </div>
  );
}
