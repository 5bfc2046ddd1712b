/**
 * The viewer's directory (directory.tsx) read from its controller: the document's locations,
 * groups and floors, and the search and filters as the controller holds them, changed through
 * the filter commands (controller/filter-commands.ts), which load with it.
 */
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslator } from '../../i18n/i18n-context';
import { lazyPart } from '../../lib/lazy-part';
import { loadNearCode, needsDrawnProjections, type NearCode } from './store-locator/load-near-code';
import type { MapDocument } from '../../components/map/types';
import { clearFilters, setQuery, toggleGroup } from './controller/filter-commands';
import type { ViewerController } from './controller/viewer-controller';
import { Directory } from './directory';

/**
 * The store locator's control, drawn by the server with the rest of the directory (on screen
 * before any script, where the page would otherwise grow by its height as it hydrates) and
 * hydrated when the directions' chunk arrives (lib/lazy-part.ts). Its props stay the same
 * until then (no search yet, the count 0).
 */
const nearPart = lazyPart(() => loadNearCode().then((code) => code.NearPanel));
const LazyNearPanel = nearPart.Part;
/** Loads the store locator's control: the server renderer awaits it before rendering. */
export const preloadNearPanel = (): Promise<unknown> => nearPart.preload();

export interface ViewerDirectoryProps {
  controller: ViewerController;
  /** The map shown: its title, and its id for the store locator's geocoder. */
  map: { id: string; title: string };
  /** The document shown (a new one with each edit, in the editor's preview). */
  doc: MapDocument;
  order: readonly number[] | undefined;
  matching: ReadonlySet<string> | null;
  query: string;
  activeGroups: ReadonlySet<string>;
  selectedId: string | null;
  onPick: (id: string, opener: HTMLElement) => void;
  actions: ReactNode;
}

export function ViewerDirectory({ controller, doc, map, ...props }: ViewerDirectoryProps) {
  const { groups, layers, settings } = doc;
  const { locale } = useTranslator();
  // "Find the nearest" (issue 29 item 4): its code only where a floor is geographic.
  const geographic = layers.some((layer) => layer.geo);
  const drawnProjections = needsDrawnProjections(doc);
  const [nearCode, setNearCode] = useState<NearCode | null>(null);
  useEffect(() => {
    if (geographic) void loadNearCode(drawnProjections).then(setNearCode, () => undefined);
  }, [geographic, drawnProjections]);
  const near = useSyncExternalStore(controller.subscribe, () => controller.getSnapshot().near, () => undefined);
  const unit = nearCode?.distanceUnit(locale) ?? 'km';
  const shown = controller.shownLocations;
  const nearest = useMemo(() => {
    const list = nearCode?.nearestLocations(shown, doc, near, unit);
    if (!list || !nearCode) return null;
    const matching = props.matching;
    const within = matching ? list.filter(({ item }) => matching.has(item.id)) : list;
    return { locations: within.map(({ item }) => item), distances: new Map(within.map(({ item, km }) => [item.id, nearCode.formatDistance(km, unit, locale)])) };
  }, [nearCode, shown, doc, near, unit, locale, props.matching]);
  const groupColors = useMemo(() => new Map(groups.map((group) => [group.id, group.color])), [groups]);
  const layerNames = useMemo(() => (layers.length > 1 ? new Map(layers.map((layer) => [layer.id, layer.name])) : null), [layers]);
  const onQuery = useCallback((query: string) => setQuery(controller, query), [controller]);
  const onToggleGroup = useCallback((id: string) => toggleGroup(controller, id), [controller]);
  const onClear = useCallback(() => clearFilters(controller), [controller]);
  return (
    <Directory
      {...props}
      title={map.title}
      total={controller.shownLocations.length}
      locations={doc.locations}
      groups={groups}
      groupColors={groupColors}
      accent={settings.theme.accent}
      layerNames={layerNames}
      search={settings.features.search}
      filters={settings.features.filters}
      onQuery={onQuery}
      onToggleGroup={onToggleGroup}
      onClear={onClear}
      nearest={nearest}
      nearPanel={geographic ? <LazyNearPanel controller={controller} mapId={map.id} near={near} unit={unit} count={nearest?.locations.length ?? 0} /> : null}
    />
  );
}
