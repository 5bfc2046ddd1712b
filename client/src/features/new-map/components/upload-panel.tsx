import { useId, useRef, useState, type DragEvent } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ACCEPT } from '../../../lib/upload/upload-api';
import type { Upload } from '../../../lib/upload/use-upload';
import { formatBytes } from '../../../utils/format-bytes';

export interface UploadPanelProps {
  upload: Upload;
  maxBytes: number;
  onFile(file: File): void;
  disabled?: boolean;
}

/** The first file of a drop, if it carried files. */
export function droppedFile(event: DragEvent): File | null {
  return event.dataTransfer?.files?.[0] ?? null;
}

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/**
 * Drop a file here or pick one: its upload's progress, the stored result with a preview, or
 * what went wrong. The server checks the content; this panel only checks the size first.
 */
export function UploadPanel({ upload, maxBytes, onFile, disabled = false }: UploadPanelProps) {
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [dragging, setDragging] = useState(false);
  const { state } = upload;

  const choose = () => input.current?.click();

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    event.stopPropagation();
    setDragging(false);
    const file = droppedFile(event);
    if (file && !disabled) onFile(file);
  };

  return (
    <div
      className={['dropzone', dragging ? 'dropzone--over' : '', `dropzone--${state.status}`].filter(Boolean).join(' ')}
      onDragEnter={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragOver={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
    >
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const file = event.target.files?.[0];
          // Picking the same file again must fire again: forget the value.
          event.target.value = '';
          if (file) onFile(file);
        }}
      />

      {state.status === 'uploading' ? (
        <div className="dropzone__progress">
          <p className="dropzone__file">
            <span className="dropzone__name">{state.name}</span>
            <span className="dropzone__meta">{formatBytes(state.size)}</span>
          </p>
          <progress className="dropzone__bar" max={1} value={state.progress} aria-label={`Uploading ${state.name}`} />
          <div className="dropzone__row">
            <span className="dropzone__meta" aria-hidden="true">
              {state.progress >= 1 ? 'Checking the file…' : `${Math.round(state.progress * 100)}%`}
            </span>
            <Button variant="ghost" size="sm" onClick={upload.cancel} disabled={disabled}>
              Cancel upload
            </Button>
          </div>
        </div>
      ) : state.status === 'done' ? (
        <div className="dropzone__done">
          <div className="dropzone__thumb">
            <img src={state.file.url} alt={`Preview of ${state.name}`} width={state.file.width} height={state.file.height} />
          </div>
          <div className="dropzone__details">
            <p className="dropzone__file">
              <span className="dropzone__name">{state.name}</span>
            </p>
            <p className="dropzone__meta">
              {state.file.kind === 'svg' ? 'SVG drawing' : state.file.contentType.replace('image/', '').toUpperCase() + ' image'} ·{' '}
              {Math.round(state.file.width)} × {Math.round(state.file.height)} · {formatBytes(state.file.size)}
            </p>
            <p className="dropzone__ok">
              <CheckIcon /> Uploaded{state.file.kind === 'svg' ? ' and made safe' : ''}
            </p>
            {state.file.removed.length > 0 ? (
              // What the sanitiser took out, in the server's words: never silently.
              <ul className="dropzone__removed" aria-label={`Removed from ${state.name}`}>
                {state.file.removed.map((part) => (
                  <li key={part.what}>{part.message}</li>
                ))}
              </ul>
            ) : null}
            <div className="dropzone__actions">
              <Button variant="secondary" size="sm" onClick={choose} disabled={disabled}>
                Replace file
              </Button>
              <Button variant="ghost" size="sm" onClick={upload.clear} disabled={disabled}>
                Remove
              </Button>
            </div>
          </div>
        </div>
      ) : (
        <div className="dropzone__idle">
          <UploadIcon />
          <p className="dropzone__prompt">
            <strong>Drag a floor plan or image here</strong>
            <span className="dropzone__or"> or </span>
          </p>
          <Button variant="secondary" onClick={choose} disabled={disabled} aria-describedby={hintId}>
            Choose a file
          </Button>
          <p id={hintId} className="dropzone__hint">
            SVG, PNG, JPEG or WebP, up to {formatBytes(maxBytes)}. Shapes with ids in an SVG can become clickable places.
          </p>
          {state.status === 'failed' ? (
            <Alert title={state.name ? `${state.name} was not uploaded` : 'The file was not uploaded'}>{state.message}</Alert>
          ) : null}
        </div>
      )}
    </div>
  );
}

function UploadIcon() {
  return (
    <svg className="dropzone__icon" viewBox="0 0 24 24" width="40" height="40" aria-hidden="true" focusable="false">
      <path d="M12 16V4m0 0-4.5 4.5M12 4l4.5 4.5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M4 15v3a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-3" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
    </svg>
  );
}

function CheckIcon() {
  return (
    <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" focusable="false">
      <path d="m5 10.5 3.2 3L15 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
