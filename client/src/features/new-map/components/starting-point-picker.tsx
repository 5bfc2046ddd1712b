import { useId, type DragEvent } from 'react';
import type { TemplateSummary } from '../api/new-map-api';
import { STARTING_POINTS, type StartingPoint, type StartingPointId } from '../starting-points';

export interface StartingPointPickerProps {
  value: StartingPointId;
  onChange(value: StartingPointId): void;
  /** The built-in maps as the server describes them (region counts, previews), when loaded. */
  templates: Partial<Record<string, TemplateSummary>>;
  disabled?: boolean;
  /** A file dropped on the upload card. */
  onDropFile?(file: File): void;
}

function summaryOf(point: StartingPoint, templates: StartingPointPickerProps['templates']): string {
  // The world's count comes from the data; the US is always the 50 states and DC.
  const template = point.template === 'world' ? templates.world : undefined;
  return template ? `${template.regionCount} countries, each one clickable.` : point.summary;
}

/**
 * The starting point as a radio group drawn as cards: native radio inputs (arrow keys move
 * between them, the group has its legend), each inside the label that is its card.
 */
export function StartingPointPicker({ value, onChange, templates, disabled = false, onDropFile }: StartingPointPickerProps) {
  const name = useId();
  return (
    <fieldset className="start-options" disabled={disabled} role="radiogroup" aria-labelledby={`${name}-legend`}>
      <legend className="start-options__legend" id={`${name}-legend`}>
        Start from
      </legend>
      <div className="start-options__grid">
        {STARTING_POINTS.map((point) => {
          const checked = value === point.id;
          const summaryId = `${name}-${point.id}-summary`;
          const acceptsDrop = point.id === 'upload' && onDropFile;
          return (
            <label
              key={point.id}
              className={['start-card', checked ? 'start-card--checked' : ''].filter(Boolean).join(' ')}
              onDragOver={
                acceptsDrop
                  ? (event: DragEvent) => {
                      if (!Array.from(event.dataTransfer.types).includes('Files')) return;
                      event.preventDefault();
                      event.dataTransfer.dropEffect = 'copy';
                    }
                  : undefined
              }
              onDrop={
                acceptsDrop
                  ? (event: DragEvent) => {
                      const file = event.dataTransfer.files?.[0];
                      if (!file) return;
                      event.preventDefault();
                      event.stopPropagation();
                      onDropFile(file);
                    }
                  : undefined
              }
            >
              <input
                type="radio"
                className="start-card__input"
                name={name}
                value={point.id}
                checked={checked}
                onChange={() => onChange(point.id)}
                aria-describedby={summaryId}
              />
              <span className="start-card__art" aria-hidden="true">
                <Art point={point} preview={point.template ? templates[point.template]?.previewUrl : undefined} />
              </span>
              <span className="start-card__text">
                <span className="start-card__title">{point.title}</span>
                <span className="start-card__summary" id={summaryId}>
                  {summaryOf(point, templates)}
                </span>
              </span>
              <span className="start-card__check" aria-hidden="true">
                <svg viewBox="0 0 20 20" width="14" height="14" focusable="false">
                  <path d="m5 10.5 3.2 3L15 7" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
                </svg>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

function Art({ point, preview }: { point: StartingPoint; preview: string | undefined }) {
  if (point.template) {
    return <img className="start-card__preview" src={preview ?? `/api/templates/${point.template}/preview`} alt="" loading="lazy" />;
  }
  if (point.id === 'import') {
    // A table of places becoming pins.
    return (
      <svg viewBox="0 0 64 48" className="start-card__icon" focusable="false">
        <rect x="6" y="8" width="30" height="32" rx="3" fill="#fff" stroke="currentColor" strokeWidth="1.5" />
        <path d="M6 16h30M6 24h30M6 32h30M16 8v32" stroke="currentColor" strokeWidth="1.1" />
        <path d="M40 24h8m0 0-3-3m3 3-3 3" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" fill="none" />
        <path d="M55 14a5 5 0 0 0-5 5c0 4 5 9 5 9s5-5 5-9a5 5 0 0 0-5-5z" fill="currentColor" />
        <circle cx="55" cy="19" r="1.8" fill="#fff" />
      </svg>
    );
  }
  if (point.id === 'street') {
    // Streets, a park and a river, with a pin.
    return (
      <svg viewBox="0 0 64 48" className="start-card__icon" focusable="false">
        <rect x="6" y="6" width="52" height="36" rx="4" fill="#fff" stroke="currentColor" strokeWidth="1.5" />
        <path d="M40 6.8c-2 9 4 13 2 21s-7 9-8 13.4" fill="none" stroke="#bae6fd" strokeWidth="4" />
        <rect x="11" y="27" width="12" height="9" rx="1.5" fill="#bbf7d0" />
        <path d="M6.8 22h50.4M26 6.8v34.4M6.8 14l50.4 10" fill="none" stroke="currentColor" strokeWidth="1.3" opacity="0.55" />
        <path d="M6.8 22h50.4M26 6.8v34.4" fill="none" stroke="#fde68a" strokeWidth="2.4" />
        <path d="M47 10a5.5 5.5 0 0 0-5.5 5.5c0 4.4 5.5 10 5.5 10s5.5-5.6 5.5-10A5.5 5.5 0 0 0 47 10z" fill="currentColor" />
        <circle cx="47" cy="15.5" r="2" fill="#fff" />
      </svg>
    );
  }
  if (point.id === 'upload') {
    return (
      <svg viewBox="0 0 64 48" className="start-card__icon" focusable="false">
        <rect x="6" y="6" width="52" height="36" rx="4" fill="#fff" stroke="currentColor" strokeWidth="1.5" />
        <path d="M14 34V14h14v10h22v10z" fill="#c7d2fe" stroke="currentColor" strokeWidth="1.2" strokeLinejoin="round" />
        <path d="M28 14v10M36 24v10" stroke="currentColor" strokeWidth="1.2" />
        <circle cx="48" cy="14" r="7" fill="currentColor" />
        <path d="M48 18v-7m0 0-2.6 2.6M48 11l2.6 2.6" stroke="#fff" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" fill="none" />
      </svg>
    );
  }
  return (
    <svg viewBox="0 0 64 48" className="start-card__icon" focusable="false">
      <rect x="6" y="6" width="52" height="36" rx="4" fill="#fff" stroke="currentColor" strokeWidth="1.5" strokeDasharray="3 3" />
      <path d="M32 18v12M26 24h12" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
    </svg>
  );
}
