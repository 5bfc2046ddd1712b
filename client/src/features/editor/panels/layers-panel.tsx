/**
 * Floors (layers): which one the canvas shows, their order, names, the default floor visitors
 * open on, each floor's drawing (an uploaded SVG or image, with its progress, and what the
 * server's sanitiser took out of it) and deleting one (with its locations, after saying how
 * many). A map keeps at least one floor.
 *
 * A floor with an SVG offers its regions as locations ("Make locations from regions…",
 * regions-dialog.tsx); right after an SVG is uploaded the dialog opens by itself when the
 * drawing has regions to offer.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { Layer as LayerType, Point } from '../../../../../events/map-document';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { DEFAULT_MAX_BYTES, getUploadLimits } from '../../../lib/upload/upload-api';
import { formatBytes } from '../../../utils/format-bytes';
import { newElementId } from '../ids';
import { checkedOnEdit } from './checked-edits';
import type { EditorPanelProps } from './panel-props';
import { previewRegions, RegionsDialog, type RegionsFloor } from './regions-dialog';
import { LayerRow, type MoveRequest } from './layer-row';
import './panels.css';

export interface LayersPanelProps extends EditorPanelProps {
  /** The floor the canvas shows. */
  currentLayerId: string;
  /** Shows another floor on the canvas (after a click, a new floor, or deleting the one shown). */
  onSelectLayer(id: string): void;
  /** Asks the canvas, showing that floor, for a click; `done` gets the point (calibrating by two points). */
  onPickPoint?: (layerId: string, done: (at: Point) => void) => void;
  /** Making locations from an SVG's regions, through the server's import (none: not offered, e.g. read-only). */
  regionImport?: RegionImport;
}

export interface RegionImport {
  mapId: string;
  /** Locations were made from the regions of a floor: how many. */
  onMade(count: number, floorName: string): void;
}

const MAX_LAYERS = 100;

/** "Floor N" for the N-th floor, or the first such name no floor has yet. */
export function nextFloorName(layers: readonly { name: string }[]): string {
  const names = new Set(layers.map((layer) => layer.name));
  for (let n = layers.length + 1; ; n++) if (!names.has(`Floor ${n}`)) return `Floor ${n}`;
}

export function LayersPanel({ document, onEdit, currentLayerId, onSelectLayer, regionImport, onPickPoint }: LayersPanelProps) {
  const edit = checkedOnEdit(document, onEdit);
  const ids = useId();
  const [deletingId, setDeletingId] = useState<string | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [focusNameOf, setFocusNameOf] = useState<string | null>(null);
  const [moving, setMoving] = useState<MoveRequest | null>(null);
  const clearMoving = useCallback(() => setMoving(null), []);
  const [maxBytes, setMaxBytes] = useState(DEFAULT_MAX_BYTES);
  const layers = document.layers;
  const defaultLayer = document.settings.defaultLayer ?? layers[0]?.id;
  const onlyOne = layers.length <= 1;
  const lastFloorHintId = `${ids}-last`;
  // The regions dialog: which floor, and the preview fetched already after an upload.
  const [regionsOf, setRegionsOf] = useState<{ floor: RegionsFloor; initial: Awaited<ReturnType<typeof previewRegions>> | null } | null>(null);
  const offerAfterUpload = useRef<AbortController | null>(null);
  useEffect(() => () => offerAfterUpload.current?.abort(), []);

  /** Opens the dialog (unless one is open) with the floor shown on the map beside it. */
  const openRegions = (request: { floor: RegionsFloor; initial: Awaited<ReturnType<typeof previewRegions>> | null }) => {
    setRegionsOf((open) => open ?? request);
    onSelectLayer(request.floor.id);
  };

  /** After an SVG upload: read its regions, and offer them when there are any to make locations of. */
  const offerRegions = (floor: RegionsFloor) => {
    if (!regionImport) return;
    offerAfterUpload.current?.abort();
    const controller = new AbortController();
    offerAfterUpload.current = controller;
    previewRegions(regionImport.mapId, floor, controller.signal).then(
      (found) => {
        if (controller.signal.aborted) return;
        // Offered when any region is not a location yet: the dialog reads names from the text inside shapes too.
        if (found.preview.regions.some((region) => !region.linked)) openRegions({ floor, initial: found });
      },
      // Not offered now (the floor is not saved yet, or the network is away): the button stays.
      () => {},
    );
  };

  // The server's upload limit; the default stands until it answers (or when it cannot).
  useEffect(() => {
    const controller = new AbortController();
    getUploadLimits(undefined, { signal: controller.signal }).then(
      ({ result }) => setMaxBytes(result.maxBytes),
      () => {},
    );
    return () => controller.abort();
  }, []);

  const counts = new Map<string, number>();
  for (const location of document.locations) counts.set(location.layer, (counts.get(location.layer) ?? 0) + 1);

  const deleting = deletingId ? (layers.find((layer) => layer.id === deletingId) ?? null) : null;
  // The floor went away while the dialog was open (a collaborator, undo): nothing left to ask.
  useEffect(() => {
    if (deletingId && !deleting) setDeletingId(null);
  }, [deletingId, deleting]);

  const move = (index: number, by: -1 | 1) => {
    const order = layers.map((layer) => layer.id);
    const [id] = order.splice(index, 1);
    if (!id) return;
    order.splice(index + by, 0, id);
    if (!edit([{ type: 'LayersReordered', order }])) setMoving({ id, by, from: index });
  };

  const add = () => {
    const layer: LayerType = { id: newElementId('layer'), name: nextFloorName(layers), file: null };
    if (edit([{ type: 'LayerAdded', layer }])) return;
    setFocusNameOf(layer.id);
    onSelectLayer(layer.id);
  };

  const confirmDelete = () => {
    if (!deleting) return;
    const index = layers.findIndex((layer) => layer.id === deleting.id);
    const removedLocations = document.locations.filter((location) => location.layer === deleting.id).map((location) => location.id);
    const problem = edit([{ type: 'LayerRemoved', id: deleting.id, removedLocations }]);
    if (problem) {
      setDeleteError(onlyOne ? 'A map keeps at least one floor.' : `This floor cannot be deleted (${problem}).`);
      return;
    }
    if (deleting.id === currentLayerId) {
      // Show the floor that takes its place in the list: the one below, or above at the end.
      const neighbour = layers[index + 1] ?? layers[index - 1];
      if (neighbour) onSelectLayer(neighbour.id);
    }
    setDeletingId(null);
    setDeleteError(null);
  };

  const deletingCount = deleting ? (counts.get(deleting.id) ?? 0) : 0;
  return (
    <div className="ep-panel">
      {regionsOf && regionImport ? (
        <RegionsDialog
          key={`${regionsOf.floor.id}:${regionsOf.floor.url}`}
          mapId={regionImport.mapId}
          floor={regionsOf.floor}
          document={document}
          initial={regionsOf.initial}
          onClose={() => setRegionsOf(null)}
          onEdit={(edits) => edit(edits)}
          onMade={(count) => {
            const name = regionsOf.floor.name;
            setRegionsOf(null);
            regionImport.onMade(count, name);
          }}
        />
      ) : null}
      <p className="ep-intro">Each floor has its own drawing and locations. Visitors switch floors in the viewer.</p>
      <ul className="ep-list" aria-label="Floors">
        {layers.map((layer, index) => (
          <LayerRow
            key={layer.id}
            layer={layer}
            index={index}
            total={layers.length}
            current={layer.id === currentLayerId}
            isDefault={layer.id === defaultLayer}
            count={counts.get(layer.id) ?? 0}
            maxBytes={maxBytes}
            edit={edit}
            focusName={layer.id === focusNameOf}
            moving={moving?.id === layer.id ? moving : null}
            onMoved={clearMoving}
            lastFloorHintId={onlyOne ? lastFloorHintId : undefined}
            onShow={() => onSelectLayer(layer.id)}
            onPickPoint={onPickPoint ? (done) => onPickPoint(layer.id, done) : undefined}
            onMove={(by) => move(index, by)}
            onMakeDefault={() => edit([{ type: 'SettingsChanged', settings: { ...document.settings, defaultLayer: layer.id } }])}
            onRegions={regionImport && layer.file?.kind === 'svg' ? () => openRegions({ floor: { id: layer.id, name: layer.name, url: layer.file!.url }, initial: null }) : undefined}
            onSvgUploaded={regionImport ? (url) => offerRegions({ id: layer.id, name: layer.name, url }) : undefined}
            onDelete={() => {
              setDeleteError(null);
              setDeletingId(layer.id);
            }}
          />
        ))}
      </ul>
      <div className="ep-panel__footer">
        <button type="button" className="ep-add" onClick={add} disabled={layers.length >= MAX_LAYERS}>
          + Add floor
        </button>
        {onlyOne ? (
          <p id={lastFloorHintId} className="ep-hint">
            A map keeps at least one floor, so the last one cannot be deleted.
          </p>
        ) : null}
        {layers.length >= MAX_LAYERS ? <p className="ep-hint">A map has at most {MAX_LAYERS} floors.</p> : null}
        <p className="ep-hint">Drawings: SVG, PNG, JPEG or WebP, up to {formatBytes(maxBytes)}.</p>
      </div>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? 'this floor'}?`}
        confirmLabel="Delete floor"
        error={deleteError}
        onCancel={() => {
          setDeletingId(null);
          setDeleteError(null);
        }}
        onConfirm={confirmDelete}
      >
        <p className="ep-dialog-text">
          {deletingCount > 0
            ? `Its ${deletingCount} ${deletingCount === 1 ? 'location is' : 'locations are'} deleted with it. You can undo this.`
            : 'It has no locations. You can undo this.'}
        </p>
      </ConfirmDialog>
    </div>
  );
}
