/**
 * The location form's building blocks: a labelled textarea and select shaped like the shared
 * TextField, a titled section, and the one way the form gives an edit (`LocationUpdate`).
 */
import { useId, type ReactNode } from 'react';
import type { z } from 'zod';
import type { LocationPatch } from '../../../../../events/map-edits';
import type { Draft } from './use-draft';

export type Patch = z.infer<typeof LocationPatch>;

/** Gives one LocationUpdated (coalesced under `coalesce` when given), or answers why it cannot be made. */
export type LocationUpdate = (changes: Patch, coalesce?: string) => string | null;

/** The first message of a failed parse, after the field's name: "Title is required". */
export function message(label: string, error: z.ZodError): string {
  return `${label} ${error.issues[0]?.message ?? 'is not valid'}`;
}

interface AreaFieldProps {
  label: string;
  draft: Draft;
  rows?: number;
  hint?: ReactNode;
  placeholder?: string;
}

/** A labelled textarea, shaped like the shared TextField. */
export function AreaField({ label, draft, rows = 2, hint, placeholder }: AreaFieldProps) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : null, draft.error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field ep-loc-field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className="field__input ep-loc-textarea"
        rows={rows}
        value={draft.value}
        placeholder={placeholder}
        aria-invalid={draft.error ? true : undefined}
        aria-describedby={describedBy}
        onChange={draft.onChange}
        onFocus={draft.onFocus}
        onBlur={draft.onBlur}
      />
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
      {draft.error ? (
        <p id={`${id}-error`} className="field__error">
          {draft.error}
        </p>
      ) : null}
    </div>
  );
}

interface SelectFieldProps {
  label: string;
  value: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  onChange(value: string): void;
  hint?: ReactNode;
}

export function SelectField({ label, value, options, onChange, hint }: SelectFieldProps) {
  const id = useId();
  return (
    <div className="field ep-loc-field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="field__input ep-loc-select" value={value} aria-describedby={hint ? `${id}-hint` : undefined} onChange={(event) => onChange(event.target.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="ep-loc-section" aria-labelledby={id}>
      <h4 id={id} className="ep-loc-section__title">
        {title}
      </h4>
      <div className="ep-loc-section__body">{children}</div>
    </section>
  );
}

export function formatCoordinate(value: number): string {
  return String(Math.round(value * 10) / 10);
}

