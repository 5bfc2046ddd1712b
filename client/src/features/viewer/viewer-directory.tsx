/**
 * The viewer's directory (directory.tsx) read from its controller: the document's locations,
 * groups and floors, and the search and filters as the controller holds them, changed through
 * the filter commands (controller/filter-commands.ts), which load with it.
 */
import { useCallback, useMemo, type ReactNode } from 'react';
import type { MapDocument } from '../../components/map/types';
import { clearFilters, setQuery, toggleGroup } from './controller/filter-commands';
import type { ViewerController } from './controller/viewer-controller';
import { Directory } from './directory';

export interface ViewerDirectoryProps {
  controller: ViewerController;
  /** The document shown (a new one with each edit, in the editor's preview). */
  doc: MapDocument;
  title: string;
  order: readonly number[] | undefined;
  matching: ReadonlySet<string> | null;
  query: string;
  activeGroups: ReadonlySet<string>;
  selectedId: string | null;
  onPick: (id: string, opener: HTMLElement) => void;
  actions: ReactNode;
}

export function ViewerDirectory({ controller, doc, ...props }: ViewerDirectoryProps) {
  const { groups, layers, settings } = doc;
  const groupColors = useMemo(() => new Map(groups.map((group) => [group.id, group.color])), [groups]);
  const layerNames = useMemo(() => (layers.length > 1 ? new Map(layers.map((layer) => [layer.id, layer.name])) : null), [layers]);
  const onQuery = useCallback((query: string) => setQuery(controller, query), [controller]);
  const onToggleGroup = useCallback((id: string) => toggleGroup(controller, id), [controller]);
  const onClear = useCallback(() => clearFilters(controller), [controller]);
  return (
    <Directory
      {...props}
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
    />
  );
}
