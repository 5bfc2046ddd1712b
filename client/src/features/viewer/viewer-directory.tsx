/**
 * The viewer's directory (directory.tsx) read from its controller: the document's locations,
 * groups and floors, and the search and filters as the controller holds them, changed through
 * the filter commands (controller/filter-commands.ts), which load with it.
 */
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslator } from '../../i18n/i18n-context';
import { loadDirectionsCode, type DirectionsCode } from './directions/use-directions';
import type { MapDocument } from '../../components/map/types';
import { clearFilters, setQuery, toggleGroup } from './controller/filter-commands';
import type { ViewerController } from './controller/viewer-controller';
import { Directory } from './directory';

/** The store locator's code (store-locator/near-panel.tsx), in the directions' chunk, loaded on maps with a geographic floor. */
type NearCode = DirectionsCode;

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
  const [nearCode, setNearCode] = useState<NearCode | null>(null);
  useEffect(() => {
    if (geographic) void loadDirectionsCode().then(setNearCode, () => undefined);
  }, [geographic]);
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
      nearPanel={nearCode ? <nearCode.NearPanel controller={controller} mapId={map.id} near={near} unit={unit} count={nearest?.locations.length ?? 0} /> : null}
    />
  );
}
