import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import './field.css';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  hint?: ReactNode;
  /** A message about this field's value, shown under it and tied to it for screen readers. */
  error?: string | null;
}

/** What a field's control needs from its shell: its id, and the ids that describe it. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * The frame every labelled control shares: the label, the control, its hint and its error,
 * tied together for screen readers. TextField and SelectField are built on it.
 */
export function FieldShell({ label, hint, error, className, children }: { label: string; hint?: ReactNode; error?: string | null | undefined; className?: string | undefined; children: (control: FieldControlProps) => ReactNode }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['field', className].filter(Boolean).join(' ')}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled input with an optional hint and error. */
export function TextField({ label, hint, error, className, ...input }: TextFieldProps) {
  return (
    <FieldShell label={label} hint={hint} error={error} className={className}>
      {(control) => <input {...control} className="field__input" {...input} />}
    </FieldShell>
  );
}
