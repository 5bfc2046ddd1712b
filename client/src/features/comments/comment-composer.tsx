/**
 * Writing a comment: a text box with a mention picker. Typing `@` and the start of a name lists
 * the map's people; arrows choose, Enter or Tab puts `@Name` in the text (the server finds the
 * names again and mails each person mentioned). Ctrl+Enter (⌘+Enter) posts.
 */
import { useId, useLayoutEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { COMMENT_BODY_MAX } from '../../../../events/comments-api';
import type { MentionOption } from './comments-controller';

export interface CommentComposerProps {
  people: readonly MentionOption[];
  label: string;
  placeholder: string;
  submitLabel: string;
  initial?: string;
  /** Posts; resolves true when it went through (the box then empties). */
  onSubmit: (body: string, mentions: string[]) => Promise<boolean>;
  onCancel?: () => void;
  autoFocus?: boolean;
}

/** The `@word` being typed just before the caret, if any. */
function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|[^\p{L}\p{N}_])@([^@\n]{0,40})$/u.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]! };
}

export function CommentComposer({ people, label, placeholder, submitLabel, initial = '', onSubmit, onCancel, autoFocus = false }: CommentComposerProps) {
  const ids = useId();
  const [text, setText] = useState(initial);
  const [caret, setCaret] = useState(initial.length);
  const [picked, setPicked] = useState<string[]>([]);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  /** Where the caret goes once the text just set is in the box (after a mention is chosen). */
  const pendingCaret = useRef<number | null>(null);

  const query = mentionQuery(text, caret);
  const options = useMemo(() => {
    if (!query) return [];
    const wanted = query.query.toLowerCase();
    return people.filter((person) => person.displayName.toLowerCase().startsWith(wanted) || person.displayName.toLowerCase().includes(` ${wanted}`)).slice(0, 8);
  }, [people, query]);
  const open = query !== null && options.length > 0 && dismissed !== query.start;
  const trimmed = text.trim();
  const tooLong = trimmed.length > COMMENT_BODY_MAX;

  const choose = (person: MentionOption) => {
    if (!query) return;
    const before = text.slice(0, query.start);
    const after = text.slice(caret);
    const inserted = `@${person.displayName} `;
    const next = `${before}${inserted}${after}`;
    setText(next);
    setPicked((current) => (current.includes(person.uid) ? current : [...current, person.uid]));
    const position = before.length + inserted.length;
    setCaret(position);
    pendingCaret.current = position;
  };

  // The caret goes after the chosen name as soon as the new text is in the box, before the next
  // key can arrive (a frame later, a fast typist's next letters landed before the caret moved).
  useLayoutEffect(() => {
    const position = pendingCaret.current;
    if (position === null) return;
    pendingCaret.current = null;
    box.current?.focus();
    box.current?.setSelectionRange(position, position);
  }, [text]);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!trimmed || tooLong || busy) return;
    setBusy(true);
    const ok = await onSubmit(trimmed, picked);
    setBusy(false);
    if (ok) {
      setText('');
      setCaret(0);
      setPicked([]);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        setActive((index) => (index + (event.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        choose(options[Math.min(active, options.length - 1)]!);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        setDismissed(query!.start);
        return;
      }
    }
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit();
    } else if (event.key === 'Escape' && onCancel) {
      event.stopPropagation();
      onCancel();
    }
  };

  const listId = `${ids}-people`;
  return (
    <form className="cm-composer" onSubmit={(event) => void submit(event)}>
      <label className="cm-sr" htmlFor={`${ids}-text`}>
        {label}
      </label>
      <div className="cm-composer__field">
        <textarea
          ref={box}
          id={`${ids}-text`}
          className="cm-composer__text"
          // A text box that suggests (not a combobox: axe allows that role on inputs only).
          aria-autocomplete="list"
          aria-controls={listId}
          aria-activedescendant={open ? `${listId}-${Math.min(active, options.length - 1)}` : undefined}
          aria-invalid={tooLong || undefined}
          placeholder={placeholder}
          value={text}
          rows={2}
          autoFocus={autoFocus}
          onChange={(event) => {
            setText(event.target.value);
            setCaret(event.target.selectionStart);
            setActive(0);
          }}
          onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
        />
        <ul id={listId} role="listbox" aria-label="People to mention" className="cm-mentions" hidden={!open}>
          {open
            ? options.map((person, index) => (
                <li
                  key={person.uid}
                  id={`${listId}-${index}`}
                  role="option"
                  aria-selected={index === Math.min(active, options.length - 1)}
                  className="cm-mentions__option"
                  onMouseDown={(event) => {
                    // Keep the focus in the text box.
                    event.preventDefault();
                    choose(person);
                  }}
                >
                  {person.displayName}
                </li>
              ))
            : null}
        </ul>
      </div>
      <div className="cm-composer__actions">
        {tooLong ? (
          <span className="cm-composer__count" role="status">
            {trimmed.length} / {COMMENT_BODY_MAX}
          </span>
        ) : people.length > 0 ? (
          <span className="cm-composer__tip">Type @ to mention someone</span>
        ) : (
          <span />
        )}
        <span className="cm-composer__buttons">
          {onCancel ? (
            <button type="button" className="cm-button" onClick={onCancel}>
              Cancel
            </button>
          ) : null}
          <button type="submit" className="cm-button cm-button--primary" disabled={!trimmed || tooLong || busy} aria-busy={busy}>
            {submitLabel}
          </button>
        </span>
      </div>
    </form>
  );
}
