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
import { Layer, LayerFile, type Layer as LayerType, type Point } from '../../../../../events/map-document';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useSession } from '../../../lib/session';
import { ACCEPT, DEFAULT_MAX_BYTES, getUploadLimits } from '../../../lib/upload/upload-api';
import { useUpload } from '../../../lib/upload/use-upload';
import { formatBytes } from '../../../utils/format-bytes';
import { newElementId } from '../ids';
import { checkedOnEdit, type CheckedOnEdit } from './checked-edits';
import { FloorCalibration } from './floor-calibration';
import { NameInput } from './name-input';
import type { EditorPanelProps } from './panel-props';
import { previewRegions, RegionsDialog, type RegionsFloor } from './regions-dialog';
import { useDraft } from './use-draft';
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

/** A move asked for with a floor's arrow buttons: focus follows the floor to its new place. */
interface MoveRequest {
  id: string;
  by: -1 | 1;
  from: number;
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

interface LayerRowProps {
  layer: LayerType;
  index: number;
  total: number;
  current: boolean;
  isDefault: boolean;
  count: number;
  maxBytes: number;
  edit: CheckedOnEdit;
  /** Focus the name (a floor just added, to type its name at once). */
  focusName: boolean;
  moving: MoveRequest | null;
  onMoved(): void;
  /** The explanation of why the last floor cannot be deleted, when this is the last one. */
  lastFloorHintId: string | undefined;
  onShow(): void;
  onMove(by: -1 | 1): void;
  onMakeDefault(): void;
  onDelete(): void;
  /** Opens the regions dialog (a floor with an SVG, where the editor may import). */
  onRegions: (() => void) | undefined;
  /** An SVG was just uploaded and put on this floor. */
  onSvgUploaded: ((url: string) => void) | undefined;
  onPickPoint: ((done: (at: Point) => void) => void) | undefined;
}

function LayerRow(props: LayerRowProps) {
  const { layer, index, total, current, isDefault, count, maxBytes, edit, focusName, moving, onMoved, lastFloorHintId, onShow, onMove, onMakeDefault, onDelete, onRegions, onSvgUploaded, onPickPoint } = props;
  const { mode } = useSession();
  const upload = useUpload({ maxBytes, useBearerToken: mode === 'clerk' });
  const [fileError, setFileError] = useState<string | null>(null);
  /** What the server's sanitiser took out of the drawing just uploaded, in its words. */
  const [removed, setRemoved] = useState<string[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  const upButton = useRef<HTMLButtonElement>(null);
  const downButton = useRef<HTMLButtonElement>(null);
  // A floor just added has its name selected once, to be typed over.
  const name = useDraft(layer.name, (text) => {
    const parsed = Layer.shape.name.safeParse(text);
    if (!parsed.success) return `Name ${parsed.error.issues[0]?.message ?? 'is not valid'}`;
    if (parsed.data === layer.name) return null;
    return edit([{ type: 'LayerRenamed', id: layer.id, name: parsed.data }], { coalesce: `layer:${layer.id}:name` });
  });

  // After a move, the arrow button pressed keeps the focus in the floor's new place (or the
  // other arrow, when the floor reached an end of the list).
  useEffect(() => {
    if (!moving) return;
    if (index === moving.from) return;
    const pressed = moving.by < 0 ? upButton.current : downButton.current;
    const other = moving.by < 0 ? downButton.current : upButton.current;
    (pressed && !pressed.disabled ? pressed : other)?.focus();
    onMoved();
  }, [moving, index, onMoved]);

  const replaceFile = async (file: File) => {
    setFileError(null);
    setRemoved([]);
    const uploaded = await upload.start(file);
    if (!uploaded) return;
    const parsed = LayerFile.safeParse({ kind: uploaded.kind, url: uploaded.url, width: uploaded.width, height: uploaded.height });
    if (!parsed.success) {
      setFileError(`${file.name || 'The file'} cannot be a floor's drawing: its size could not be read. Try another file.`);
      upload.clear();
      return;
    }
    const problem = edit([{ type: 'LayerFileReplaced', id: layer.id, file: parsed.data }]);
    if (problem) setFileError(`The drawing could not be put on this floor (${problem}).`);
    else {
      setRemoved(uploaded.removed.map((part) => part.message));
      if (parsed.data.kind === 'svg') onSvgUploaded?.(parsed.data.url);
    }
    upload.clear();
  };

  const state = upload.state;
  const percent = state.status === 'uploading' ? Math.round(state.progress * 100) : 0;
  const drawing = layer.file ? `${layer.file.kind === 'svg' ? 'SVG' : 'Image'} ${Math.round(layer.file.width)}×${Math.round(layer.file.height)}` : 'No drawing';
  const uploadError = state.status === 'failed' ? state.message : fileError;
  return (
    <li className="ep-row ep-row--layer" data-current={current ? 'true' : undefined}>
      <button type="button" className="ep-layer-show" aria-pressed={current} aria-label={`Show ${layer.name}`} title={current ? 'Shown on the canvas' : 'Show on the canvas'} onClick={onShow}>
        <span className="ep-layer-thumb" aria-hidden="true">
          {layer.file ? <img src={layer.file.url} alt="" loading="lazy" /> : <span>{index + 1}</span>}
        </span>
      </button>
      <div className="ep-row__main">
        <NameInput label={`Name of ${layer.name}`} draft={name} focusOnMount={focusName} />
        <div className="ep-row__meta">
          <span>
            {count} {count === 1 ? 'location' : 'locations'} · {drawing}
          </span>
          {isDefault ? <span className="ep-badge">Opens first</span> : null}
          {current ? <span className="ep-badge ep-badge--quiet">Shown</span> : null}
        </div>
        {state.status === 'uploading' ? (
          <div className="ep-upload">
            <div className="ep-upload__line">
              <span className="ep-upload__name">
                Uploading {state.name} · {percent}%
              </span>
              <button type="button" className="ep-link-button" onClick={upload.cancel} aria-label={`Cancel the upload to ${layer.name}`}>
                Cancel
              </button>
            </div>
            <div className="ep-progress" role="progressbar" aria-label={`Uploading ${state.name}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
              <span style={{ width: `${percent}%` }} />
            </div>
          </div>
        ) : null}
        {uploadError ? (
          <p className="ep-error" role="alert">
            {uploadError}
          </p>
        ) : null}
        {removed.length > 0 ? (
          <div className="ep-notice" role="status">
            <p className="ep-notice__title">Removed from {layer.name}'s drawing:</p>
            <ul>
              {removed.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
            <button type="button" className="ep-link-button" onClick={() => setRemoved([])} aria-label={`Dismiss the note on ${layer.name}'s drawing`}>
              Dismiss
            </button>
          </div>
        ) : null}
        <div className="ep-row__actions">
          <input
            ref={fileInput}
            type="file"
            accept={ACCEPT}
            aria-label={`Drawing file for ${layer.name}`}
            hidden
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void replaceFile(file);
            }}
          />
          <button
            type="button"
            className="ep-link-button"
            disabled={state.status === 'uploading'}
            onClick={() => fileInput.current?.click()}
            aria-label={`${layer.file ? 'Replace' : 'Upload'} the drawing of ${layer.name}`}
          >
            {layer.file ? 'Replace drawing' : 'Upload drawing'}
          </button>
          {layer.file ? (
            <button
              type="button"
              className="ep-link-button"
              disabled={state.status === 'uploading'}
              onClick={() => edit([{ type: 'LayerFileReplaced', id: layer.id, file: null }])}
              aria-label={`Remove the drawing of ${layer.name}`}
            >
              Remove drawing
            </button>
          ) : null}
          {onRegions ? (
            <button type="button" className="ep-link-button" disabled={state.status === 'uploading'} onClick={onRegions} aria-label={`Make locations from the regions of ${layer.name}`} aria-haspopup="dialog">
              Make locations from regions…
            </button>
          ) : null}
          {!isDefault ? (
            <button type="button" className="ep-link-button" onClick={onMakeDefault} aria-label={`Open on ${layer.name} first`} title="Visitors see this floor first">
              Open first
            </button>
          ) : null}
        </div>
        {layer.file || layer.geo ? <FloorCalibration layer={layer} size={layer.file ?? { width: 1, height: 1 }} edit={edit} onPickPoint={onPickPoint} /> : null}
      </div>
      <div className="ep-row__side">
        <button ref={upButton} type="button" className="ep-icon-button" aria-label={`Move ${layer.name} up`} disabled={index === 0} onClick={() => onMove(-1)}>
          <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
            <path d="M6 15l6-6 6 6" />
          </svg>
        </button>
        <button ref={downButton} type="button" className="ep-icon-button" aria-label={`Move ${layer.name} down`} disabled={index === total - 1} onClick={() => onMove(1)}>
          <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
            <path d="M6 9l6 6 6-6" />
          </svg>
        </button>
        <button
          type="button"
          className="ep-icon-button ep-icon-button--danger"
          aria-label={total <= 1 ? `${layer.name} cannot be deleted: a map keeps at least one floor` : `Delete ${layer.name}`}
          aria-describedby={total <= 1 ? lastFloorHintId : undefined}
          title={total <= 1 ? 'A map keeps at least one floor' : `Delete ${layer.name}`}
          disabled={total <= 1}
          onClick={onDelete}
        >
          <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
            <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />
          </svg>
        </button>
      </div>
    </li>
  );
}
