import type { ReactNode, SelectHTMLAttributes } from 'react';
import { FieldShell } from './field';
import './select-field.css';

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'children'> {
  label: string;
  options: readonly SelectOption[];
  /** A first, empty choice such as 'Choose a plan'; it cannot be picked again once left. */
  placeholder?: string;
  hint?: ReactNode;
  /** A message about this field's value, shown under it and tied to it for screen readers. */
  error?: string | null;
}

/** A labelled dropdown with an optional hint and error, shaped like TextField. */
export function SelectField({ label, options, placeholder, hint, error, className, ...select }: SelectFieldProps) {
  return (
    <FieldShell label={label} hint={hint} error={error} className={className}>
      {(control) => (
        <div className="select-field">
          <select {...control} className="field__input select-field__input" {...select}>
            {placeholder !== undefined ? (
              <option value="" disabled>
                {placeholder}
              </option>
            ) : null}
            {options.map((option) => (
              <option key={option.value} value={option.value} disabled={option.disabled}>
                {option.label}
              </option>
            ))}
          </select>
          <svg className="select-field__chevron" viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" focusable="false">
            <path d="m5 7.5 5 5 5-5" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </div>
      )}
    </FieldShell>
  );
}
