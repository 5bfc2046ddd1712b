/**
 * The inline name of a row in the floors and groups panels: a draft (see use-draft.ts) with its
 * error under it. A row just added gets the focus with its name selected, to type over it.
 */
import { useId, useRef } from 'react';
import type { Draft } from './use-draft';

export function NameInput({ label, draft, focusOnMount }: { label: string; draft: Draft; focusOnMount: boolean }) {
  const errorId = `${useId()}-name-error`;
  const selectOnFocus = useRef(focusOnMount);
  return (
    <>
      <input
        className="ep-input ep-input--name"
        value={draft.value}
        aria-label={label}
        aria-invalid={draft.error ? true : undefined}
        aria-describedby={draft.error ? errorId : undefined}
        autoFocus={focusOnMount}
        onChange={draft.onChange}
        onFocus={(event) => {
          draft.onFocus();
          if (selectOnFocus.current) {
            selectOnFocus.current = false;
            event.currentTarget.select();
          }
        }}
        onBlur={draft.onBlur}
        onKeyDown={(event) => {
          if (event.key === 'Enter') event.currentTarget.blur();
        }}
      />
      {draft.error ? (
        <p id={errorId} className="ep-error">
          {draft.error}
        </p>
      ) : null}
    </>
  );
}
