/**
 * The keyboard's way to a basemap floor's locations (issue 29 item 1), as the canvas's floor has
 * it (map-renderer.tsx, location-buttons.tsx): visually hidden buttons after the map, Tab
 * reaching each location with its own name and Enter opening it. A floor of a few hundred
 * locations has one button each, in reading order (top to bottom, then left to right); a
 * larger one (a store chain) has buttons for what is on screen at rest, as the canvas's
 * clusters do (cluster-control.tsx): a cluster's button says how many locations it holds and
 * zooms into it, the focus then following to its first part on screen.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslator } from '../../i18n/i18n-context';
import type { BasemapMarks, ShownCluster } from './basemap-marks';
import { CLUSTER_FROM } from './cluster-items';
import { clusterLabel } from './cluster-look';
import { LocationButtons } from './location-buttons';
import type { MapLibreMapView } from './maplibre-map-view';
import type { Location } from './types';

interface Props {
  view: MapLibreMapView | null;
  /** The floor's shown locations (not hidden), by id. */
  byId: ReadonlyMap<string, Location>;
  visibleIds: ReadonlySet<string> | null;
  label: string;
  describe: (location: Location) => string;
}

const NONE: readonly Location[] = [];

export function BasemapLocationButtons({ view, byId, visibleIds, label, describe }: Props) {
  const { t } = useTranslator();
  const listed = useMemo(() => [...byId.values()].filter((location) => !visibleIds || visibleIds.has(location.id)), [byId, visibleIds]);
  const few = listed.length <= CLUSTER_FROM;
  // Few: every location, top to bottom, then left to right (a location without a place last).
  const ordered = useMemo(
    () => (few ? [...listed].sort((a, b) => (a.position?.y ?? Infinity) - (b.position?.y ?? Infinity) || (a.position?.x ?? 0) - (b.position?.x ?? 0)) : NONE),
    [listed, few],
  );
  // Many: what the map shows at rest.
  const [marks, setMarks] = useState<BasemapMarks | null>(null);
  useEffect(() => {
    if (few || !view) return;
    const update = () => setMarks((current) => {
      const next = view.marks();
      return current && sameMarks(current, next) ? current : next;
    });
    update();
    return view.onSettle(update);
  }, [view, few]);
  // The parts of the cluster last opened by keyboard: the focus follows to the first of them on screen.
  const focusNext = useRef<string[] | null>(null);
  const list = useRef<HTMLLIElement>(null);
  useEffect(() => {
    const parts = focusNext.current;
    const root = list.current?.parentElement;
    if (!parts || !root) return;
    for (const id of parts) {
      const button = root.querySelector<HTMLElement>(id.startsWith('cluster-') ? `[data-cluster="${id}"]` : `[data-location="${CSS.escape(id)}"]`);
      if (button) {
        focusNext.current = null;
        button.focus();
        return;
      }
    }
  }, [marks]);

  const pick = useCallback((id: string, opener: HTMLElement) => view?.emit('select', id, opener), [view]);
  const focusLocation = useCallback((id: string | null) => view?.focusLocation(id), [view]);
  const expand = ({ clusterId, at }: ShownCluster, byKeyboard: boolean) => {
    void view?.expandCluster(clusterId, at).then(
      (parts) => {
        focusNext.current = byKeyboard ? parts : null;
      },
      () => undefined,
    );
  };
  const shownPoints = few || !marks ? NONE : marks.points.map((id) => byId.get(id)).filter((location): location is Location => location !== undefined && (!visibleIds || visibleIds.has(location.id)));

  return (
    <LocationButtons locations={few ? ordered : shownPoints} label={label} describe={describe} onPick={pick} onFocusChange={focusLocation}>
      {!few && marks
        ? marks.clusters.map((cluster, i) => (
            <li key={cluster.id} ref={i === 0 ? list : undefined}>
              <button
                type="button"
                data-cluster={cluster.id}
                data-count={cluster.count}
                data-screen={`${cluster.sx},${cluster.sy}`}
                aria-label={clusterLabel(cluster.count, t)}
                onFocus={() => focusLocation(null)}
                // A keyboard's Enter clicks with no pointer position (detail 0): the focus then follows into the cluster.
                onClick={(event) => expand(cluster, event.detail === 0)}
              />
            </li>
          ))
        : null}
      {/* The list's first item when no cluster is on screen (the focus follows from it). */}
      {!few && marks && marks.clusters.length === 0 ? <li ref={list} hidden /> : null}
    </LocationButtons>
  );
}

function sameMarks(a: BasemapMarks, b: BasemapMarks): boolean {
  return (
    a.clusters.length === b.clusters.length &&
    a.points.length === b.points.length &&
    a.clusters.every((cluster, i) => cluster.id === b.clusters[i]!.id && cluster.sx === b.clusters[i]!.sx && cluster.sy === b.clusters[i]!.sy) &&
    a.points.every((id, i) => id === b.points[i])
  );
}
