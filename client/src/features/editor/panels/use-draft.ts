/**
 * A text field's draft in an editor panel: what the user types, checked on each change; an
 * acceptable text gives its edit at once (the panels coalesce them per field), a refused one
 * stays in the field with the reason. A change from outside (a collaborator, undo) replaces
 * the draft while the field does not have the focus.
 */
import { useEffect, useRef, useState, type ChangeEvent } from 'react';

export interface Draft {
  value: string;
  error: string | null;
  onChange(event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>): void;
  onFocus(): void;
  onBlur(): void;
}

/**
 * A field's text as the user types it. `commit` gives the edit for an acceptable text and
 * answers null, or answers what is wrong (shown; the draft stays).
 */
export function useDraft(external: string, commit: (text: string) => string | null): Draft {
  const [draft, setDraft] = useState(external);
  const [error, setError] = useState<string | null>(null);
  const focused = useRef(false);
  const latest = useRef(external);
  latest.current = external;
  useEffect(() => {
    if (focused.current) return;
    setDraft(external);
    setError(null);
  }, [external]);
  return {
    value: draft,
    error,
    onChange: (event) => {
      const text = event.target.value;
      setDraft(text);
      setError(commit(text));
    },
    onFocus: () => {
      focused.current = true;
    },
    onBlur: () => {
      focused.current = false;
      // An accepted draft shows the value as kept ("Café " as "Café", or a collaborator's
      // later value); a refused one stays for the user to fix.
      if (!error) setDraft(latest.current);
    },
  };
}

