/**
 * Floors (layers): which one the canvas shows, their order, names, the default floor visitors
 * open on, each floor's drawing (an uploaded SVG or image) and deleting one (with its
 * locations, after saying how many). A map keeps at least one floor.
 */
import { useRef, useState } from 'react';
import { Layer, type Layer as LayerType, type MapDocument } from '../../../../../events/map-document';
import type { MapEdit } from '../../../../../events/map-edits';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useSession } from '../../../lib/session';
import { ACCEPT, DEFAULT_MAX_BYTES } from '../../new-map/starting-points';
import { useUpload } from '../../new-map/use-upload';
import { newElementId } from '../ids';
import type { EditorPanelProps, OnEdit } from './panel-props';
import { useDraft } from './use-draft';
import './panels.css';

export interface LayersPanelProps extends EditorPanelProps {
  currentLayerId: string;
  onSelectLayer(id: string): void;
}

function nextFloorName(document: MapDocument): string {
  const names = new Set(document.layers.map((layer) => layer.name));
  for (let n = document.layers.length + 1; ; n++) if (!names.has(`Floor ${n}`)) return `Floor ${n}`;
}

export function LayersPanel({ document, onEdit, currentLayerId, onSelectLayer }: LayersPanelProps) {
  const [deleting, setDeleting] = useState<LayerType | null>(null);
  const layers = document.layers;
  const defaultLayer = document.settings.defaultLayer ?? layers[0]?.id;
  const countOn = (id: string) => document.locations.filter((location) => location.layer === id).length;

  const move = (index: number, by: -1 | 1) => {
    const order = layers.map((layer) => layer.id);
    const [id] = order.splice(index, 1);
    order.splice(index + by, 0, id!);
    onEdit([{ type: 'LayersReordered', order }]);
  };

  const add = () => {
    const layer: LayerType = { id: newElementId('layer'), name: nextFloorName(document), file: null };
    onEdit([{ type: 'LayerAdded', layer }]);
    onSelectLayer(layer.id);
  };

  const deletingCount = deleting ? countOn(deleting.id) : 0;
  return (
    <div className="ep-panel">
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
            count={countOn(layer.id)}
            onEdit={onEdit}
            onShow={() => onSelectLayer(layer.id)}
            onMove={(by) => move(index, by)}
            onMakeDefault={() => onEdit([{ type: 'SettingsChanged', settings: { ...document.settings, defaultLayer: layer.id } }])}
            onDelete={() => setDeleting(layer)}
          />
        ))}
      </ul>
      <button type="button" className="ep-add" onClick={add} disabled={layers.length >= 100}>
        + Add floor
      </button>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? 'this floor'}?`}
        confirmLabel="Delete floor"
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) {
            onEdit([{ type: 'LayerRemoved', id: deleting.id, removedLocations: [] }]);
            if (deleting.id === currentLayerId) onSelectLayer(layers.find((layer) => layer.id !== deleting.id)!.id);
          }
          setDeleting(null);
        }}
      >
        {deletingCount > 0
          ? `Its ${deletingCount} ${deletingCount === 1 ? 'location is' : 'locations are'} deleted with it. You can undo this.`
          : 'It has no locations. You can undo this.'}
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
  onEdit: OnEdit;
  onShow(): void;
  onMove(by: -1 | 1): void;
  onMakeDefault(): void;
  onDelete(): void;
}

function LayerRow({ layer, index, total, current, isDefault, count, onEdit, onShow, onMove, onMakeDefault, onDelete }: LayerRowProps) {
  const { mode } = useSession();
  const upload = useUpload({ maxBytes: DEFAULT_MAX_BYTES, useBearerToken: mode === 'clerk' });
  const fileInput = useRef<HTMLInputElement>(null);
  const name = useDraft(layer.name, (text) => {
    const parsed = Layer.shape.name.safeParse(text);
    if (!parsed.success) return `Name ${parsed.error.issues[0]?.message ?? 'is not valid'}`;
    if (parsed.data !== layer.name) onEdit([{ type: 'LayerRenamed', id: layer.id, name: parsed.data }], { coalesce: `layer:${layer.id}:name` });
    return null;
  });

  const replaceFile = async (file: File) => {
    const uploaded = await upload.start(file);
    if (!uploaded) return;
    const edit: MapEdit = { type: 'LayerFileReplaced', id: layer.id, file: { kind: uploaded.kind, url: uploaded.url, width: uploaded.width, height: uploaded.height } };
    onEdit([edit]);
    upload.clear();
  };

  const state = upload.state;
  const errorId = `${layer.id}-name-error`;
  return (
    <li className="ep-row ep-row--layer" data-current={current ? 'true' : undefined}>
      <button type="button" className="ep-layer-show" aria-pressed={current} aria-label={`Show ${layer.name}`} onClick={onShow}>
        <span className="ep-layer-thumb" aria-hidden="true">
          {layer.file ? <img src={layer.file.url} alt="" loading="lazy" /> : <span>{index + 1}</span>}
        </span>
      </button>
      <div className="ep-row__main">
        <input
          className="ep-input"
          value={name.value}
          aria-label={`Name of ${layer.name}`}
          aria-invalid={name.error ? true : undefined}
          aria-describedby={name.error ? errorId : undefined}
          onChange={name.onChange}
          onFocus={name.onFocus}
          onBlur={name.onBlur}
          onKeyDown={(event) => {
            if (event.key === 'Enter') event.currentTarget.blur();
          }}
        />
        {name.error ? (
          <p id={errorId} className="ep-error">
            {name.error}
          </p>
        ) : null}
        <div className="ep-row__meta">
          <span>
            {count} {count === 1 ? 'location' : 'locations'}
            {layer.file ? ` · ${layer.file.kind === 'svg' ? 'SVG drawing' : 'image'} ${Math.round(layer.file.width)}×${Math.round(layer.file.height)}` : ' · no drawing'}
          </span>
          {isDefault ? <span className="ep-badge">Opens first</span> : null}
        </div>
        {state.status === 'uploading' ? (
          <div className="ep-progress" role="progressbar" aria-label={`Uploading ${state.name}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(state.progress * 100)}>
            <span style={{ width: `${Math.round(state.progress * 100)}%` }} />
          </div>
        ) : null}
        {state.status === 'failed' ? (
          <p className="ep-error" role="alert">
            {state.message}
          </p>
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
          <button type="button" className="ep-link-button" disabled={state.status === 'uploading'} onClick={() => fileInput.current?.click()} aria-label={`${layer.file ? 'Replace' : 'Upload'} the drawing of ${layer.name}`}>
            {layer.file ? 'Replace drawing' : 'Upload drawing'}
          </button>
          {layer.file ? (
            <button type="button" className="ep-link-button" onClick={() => onEdit([{ type: 'LayerFileReplaced', id: layer.id, file: null }])} aria-label={`Remove the drawing of ${layer.name}`}>
              Remove drawing
            </button>
          ) : null}
          {!isDefault ? (
            <button type="button" className="ep-link-button" onClick={onMakeDefault} aria-label={`Open on ${layer.name} first`}>
              Open first
            </button>
          ) : null}
        </div>
      </div>
      <div className="ep-row__side">
        <button type="button" className="ep-icon-button" aria-label={`Move ${layer.name} up`} disabled={index === 0} onClick={() => onMove(-1)}>
          <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" aria-hidden="true">
            <path d="M6 15l6-6 6 6" />
          </svg>
        </button>
        <button type="button" className="ep-icon-button" aria-label={`Move ${layer.name} down`} disabled={index === total - 1} onClick={() => onMove(1)}>
          <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" aria-hidden="true">
            <path d="M6 9l6 6 6-6" />
          </svg>
        </button>
        <button
          type="button"
          className="ep-icon-button ep-icon-button--danger"
          aria-label={total <= 1 ? `${layer.name} cannot be deleted: a map keeps at least one floor` : `Delete ${layer.name}`}
          title={total <= 1 ? 'A map keeps at least one floor' : undefined}
          disabled={total <= 1}
          onClick={onDelete}
        >
          <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" aria-hidden="true">
            <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />
          </svg>
        </button>
      </div>
    </li>
  );
}
