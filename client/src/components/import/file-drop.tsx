/**
 * Where files are dropped or picked: a labelled file input (several files at once: a map file
 * and the drawings it names) inside a zone that takes a drop.
 */
import { forwardRef, useId, useState, type DragEvent } from 'react';
import { IMPORT_ACCEPT } from '../../lib/import/import-api';
import './import.css';

export interface FileDropProps {
  label: string;
  hint: string;
  onFiles: (files: File[]) => void;
  disabled?: boolean;
}

export const FileDrop = forwardRef<HTMLInputElement, FileDropProps>(function FileDrop({ label, hint, onFiles, disabled = false }, ref) {
  const id = useId();
  const [over, setOver] = useState(false);
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    // The page around may treat a drop as its own (the new-map page's upload): this one is ours.
    event.stopPropagation();
    setOver(false);
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0 && !disabled) onFiles(files);
  };
  return (
    <div
      className="im-drop"
      data-over={over ? 'true' : undefined}
      data-disabled={disabled ? 'true' : undefined}
      onDragOver={(event) => {
        if (!Array.from(event.dataTransfer.types).includes('Files')) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
        setOver(true);
      }}
      onDragLeave={(event) => {
        // Moving over the zone's own children fires dragleave too.
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={onDrop}
    >
      <svg className="im-drop__icon" viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
        <path d="M12 15V4m0 0L7.5 8.5M12 4l4.5 4.5M5 14v4a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <div className="im-drop__text">
        <label htmlFor={id} className="im-button im-button--primary">
          {label}
        </label>
        <span className="im-drop__or">or drop them here</span>
        <span className="im-drop__hint" id={`${id}-hint`}>
          {hint}
        </span>
      </div>
      <input
        ref={ref}
        id={id}
        className="visually-hidden"
        type="file"
        multiple
        accept={IMPORT_ACCEPT}
        disabled={disabled}
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </div>
  );
});
