/**
 * One floor in the floors panel: show it, its name, up and down, the default floor, its drawing
 * (upload with progress, what the sanitiser took out, remove), its calibration, its regions and
 * delete.
 */
import { useEffect, useRef, useState } from 'react';
import { Layer, LayerFile, type Layer as LayerType, type Point } from '../../../../../events/map-document';
import { useSession } from '../../../lib/session';
import { ACCEPT } from '../../../lib/upload/upload-api';
import { useUpload } from '../../../lib/upload/use-upload';
import type { CheckedOnEdit } from './checked-edits';
import { FloorCalibration } from './floor-calibration';
import { NameInput } from './name-input';
import { useDraft } from './use-draft';

/** A move asked for with a floor's arrow buttons: focus follows the floor to its new place. */
export interface MoveRequest {
  id: string;
  by: -1 | 1;
  from: number;
}

export interface LayerRowProps {
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

export function LayerRow(props: LayerRowProps) {
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
