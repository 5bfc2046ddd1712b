/**
 * The settings panel's fields: a number checked as it is typed, and a colour (picker and hex code).
 */
import { useId } from 'react';
import { ColorSwatch, HexInput, useHexDraft } from './color-input';
import { useDraft } from './use-draft';

/** A number typed in a field: the value, or what is wrong with the text. */
export function parseNumber(label: string, text: string): number | string {
  const number = Number(text.trim().replace(',', '.'));
  return text.trim() === '' || !Number.isFinite(number) ? `${label} must be a number.` : number;
}

interface NumberFieldProps {
  label: string;
  value: number;
  /** Gives the edit for an acceptable number and answers null, or answers what is wrong. */
  onValue(value: number): string | null;
  step?: number;
  min?: number;
  max?: number;
}

export function NumberField({ label, value, onValue, step = 1, min, max }: NumberFieldProps) {
  const id = useId();
  const draft = useDraft(String(value), (text) => {
    const number = parseNumber(label, text);
    if (typeof number === 'string') return number;
    return number === value ? null : onValue(number);
  });
  return (
    <div className="ep-field">
      <label htmlFor={id}>{label}</label>
      <span className="ep-number">
        <input
          id={id}
          className="ep-input"
          type="number"
          inputMode="decimal"
          step={step}
          min={min}
          max={max}
          value={draft.value}
          aria-invalid={draft.error ? true : undefined}
          aria-describedby={draft.error ? `${id}-error` : undefined}
          onChange={draft.onChange}
          onFocus={draft.onFocus}
          onBlur={draft.onBlur}
        />
      </span>
      {draft.error ? (
        <p id={`${id}-error`} className="ep-error">
          {draft.error}
        </p>
      ) : null}
    </div>
  );
}

/** A colour: its label, the picker (named by the label) and the typed hex code, with the code's message under them. */
export function ColorRow({ label, value, onColor }: { label: string; value: string; onColor(color: string): void }) {
  const id = useId();
  const draft = useHexDraft(label, value, onColor);
  return (
    <div className="ep-field">
      <div className="ep-color-row">
        <label htmlFor={id}>{label}</label>
        <span className="ep-color">
          <ColorSwatch id={id} value={value} onColor={onColor} />
          <HexInput label={label} draft={draft} />
        </span>
      </div>
      {draft.error ? (
        <p id={draft.errorId} className="ep-error">
          {draft.error}
        </p>
      ) : null}
    </div>
  );
}
