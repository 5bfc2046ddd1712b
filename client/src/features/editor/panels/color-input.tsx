/**
 * A colour in an editor panel: the browser's colour picker and the hex code, which can be
 * typed too. Every acceptable colour is given at once (`onColor`, lowercase); a typed code the
 * document's `Color` schema refuses stays in the field with the schema's message once the user
 * leaves it (or presses Enter), and nothing is given. A change from outside (a collaborator,
 * undo, the picker) replaces the code while the field does not have the focus.
 *
 * The pieces are apart (`ColorSwatch`, `useHexDraft`, `HexInput`) for each panel's layout; the
 * caller shows `draft.error` at `draft.errorId`.
 */
import { useEffect, useId, useRef, useState, type ChangeEvent, type FocusEvent, type KeyboardEvent } from 'react';
import { Color } from '../../../../../events/map-document';

/** A typed code as the schema sees it: trimmed, with the `#` added when only the digits were typed. */
function normalise(text: string): string {
  const trimmed = text.trim();
  return /^[0-9a-fA-F]{6}$/.test(trimmed) ? `#${trimmed}` : trimmed;
}

/** The colour a text stands for (lowercase), or the schema's message. */
function parseColor(text: string): { color: string } | { message: string } {
  const parsed = Color.safeParse(normalise(text));
  return parsed.success ? { color: parsed.data.toLowerCase() } : { message: parsed.error.issues[0]?.message ?? 'is not a colour' };
}

export interface ColorSwatchProps {
  value: string;
  onColor(color: string): void;
  /** The picker's accessible name; leave it out when a `<label htmlFor={id}>` names it. */
  label?: string;
  id?: string;
}

/** The browser's colour picker; gives each colour picked (dragging in it gives many). */
export function ColorSwatch({ value, onColor, label, id }: ColorSwatchProps) {
  const shown = Color.safeParse(value).success ? value.toLowerCase() : '#000000';
  return (
    <input
      type="color"
      className="ep-swatch"
      id={id}
      aria-label={label}
      value={shown}
      onChange={(event) => {
        const parsed = parseColor(event.target.value);
        if ('color' in parsed && parsed.color !== value.toLowerCase()) onColor(parsed.color);
      }}
    />
  );
}

export interface HexDraft {
  value: string;
  error: string | null;
  errorId: string;
  inputProps: {
    value: string;
    onChange(event: ChangeEvent<HTMLInputElement>): void;
    onFocus(): void;
    onBlur(event: FocusEvent<HTMLInputElement>): void;
    onKeyDown(event: KeyboardEvent<HTMLInputElement>): void;
  };
}

/** The typed hex code of a colour: `label` starts its message ("Accent colour must be a colour like #4f46e5"). */
export function useHexDraft(label: string, value: string, onColor: (color: string) => void): HexDraft {
  const errorId = useId();
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);
  const focused = useRef(false);

  useEffect(() => {
    if (focused.current) return;
    setDraft(value);
    setError(null);
  }, [value]);

  const problem = (text: string): string | null => {
    const parsed = parseColor(text);
    return 'message' in parsed ? `${label} ${parsed.message}` : null;
  };

  const give = (text: string) => {
    const parsed = parseColor(text);
    if ('color' in parsed && parsed.color !== value.toLowerCase()) onColor(parsed.color);
  };

  return {
    value: draft,
    error,
    errorId,
    inputProps: {
      value: draft,
      onChange: (event) => {
        const text = event.target.value;
        setDraft(text);
        // A message already shown follows the typing; a new one waits until the user is done.
        if (error) setError(problem(text));
        give(text);
      },
      onFocus: () => {
        focused.current = true;
      },
      onBlur: (event) => {
        focused.current = false;
        const wrong = problem(event.target.value);
        setError(wrong);
        // An accepted code shows the colour as kept (lowercase, with its #).
        if (!wrong) setDraft(value);
      },
      onKeyDown: (event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          setError(problem(event.currentTarget.value));
        }
        if (event.key === 'Escape' && draft !== value) {
          // Back to the colour as it is.
          event.stopPropagation();
          setDraft(value);
          setError(null);
        }
      },
    },
  };
}

/** The text field of a hex code (its message is shown by the caller, under it, at `draft.errorId`). */
export function HexInput({ label, draft }: { label: string; draft: HexDraft }) {
  return (
    <input
      className="ep-input ep-input--hex"
      spellCheck={false}
      autoComplete="off"
      maxLength={9}
      aria-label={`${label}, hex code`}
      aria-invalid={draft.error ? true : undefined}
      aria-describedby={draft.error ? draft.errorId : undefined}
      {...draft.inputProps}
    />
  );
}
