/**
 * The history panel's pieces: "Save version" (a name or none) and one version in the list
 * (renamed in place, deleted, restored), with how a version is named and told apart.
 */
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { HISTORY_NAME_MAX, HistoryName } from '../../../../../events/map';
import type { HistoryEntry } from '../../../../../events/read-models';
import { api, toApiError } from '../../../lib/api';
import { formatDateTime, formatRelative } from '../history-time';
import { entryTitle } from './history-edits';

/** The product's own entries: before every restore (unnamed checkpoints look like any other). */
export function isAutomatic(entry: Pick<HistoryEntry, 'name' | 'auto'>): boolean {
  // Entries recorded before the list kept the flag: the product's own names say so.
  return entry.auto ?? entry.name?.startsWith('Before restoring') ?? false;
}

export const describe = (entry: HistoryEntry) => entryTitle(entry, formatDateTime);
export const errorOf = (error: unknown) => toApiError(error).message;

export function SaveVersion({ mapId }: { mapId: string }) {
  const ids = useId();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => setSaved(null), 4_000);
    return () => clearTimeout(timer);
  }, [saved]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    let checked: string | undefined;
    if (name.trim() !== '') {
      const parsed = HistoryName.safeParse(name);
      if (!parsed.success) {
        setError(parsed.error.issues[0]?.message ?? 'The name is not valid.');
        return;
      }
      checked = parsed.data;
    }
    setBusy(true);
    setError(null);
    setSaved(null);
    try {
      await api.callFunction('saveMapHistory', checked === undefined ? { mapId } : { mapId, name: checked });
      setName('');
      setSaved(checked ? `Saved “${checked}”.` : 'Version saved.');
    } catch (failure) {
      setError(errorOf(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="ep-section ep-hist-save" aria-labelledby={`${ids}-title`} onSubmit={(event) => void submit(event)}>
      <h3 id={`${ids}-title`} className="ep-section__title">
        Save this map as a version
      </h3>
      <div className="ep-field">
        <label htmlFor={`${ids}-name`}>Name (optional)</label>
        <input
          id={`${ids}-name`}
          className="ep-input"
          value={name}
          maxLength={HISTORY_NAME_MAX}
          placeholder="Before the spring update"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${ids}-error` : undefined}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <div className="ep-hist-save__row">
        <button type="submit" className="ep-button ep-button--primary" disabled={busy} aria-busy={busy || undefined}>
          {busy ? 'Saving…' : 'Save version'}
        </button>
        <p className="ep-live" role="status">
          {saved ?? ''}
        </p>
      </div>
      {error ? (
        <p id={`${ids}-error`} className="ep-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}

export interface VersionRowProps {
  entry: HistoryEntry;
  now: number;
  onRename: (name: string) => void;
  onDelete: () => void;
  onRestore: () => void;
}

export function VersionRow({ entry, now, onRename, onDelete, onRestore }: VersionRowProps) {
  const title = describe(entry);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const renameRef = useRef<HTMLButtonElement>(null);
  const ids = useId();

  useEffect(() => {
    if (editing) inputRef.current?.select();
  }, [editing]);

  const stop = useCallback((focusRename: boolean) => {
    setEditing(false);
    setProblem(null);
    if (focusRename) requestAnimationFrame(() => renameRef.current?.focus());
  }, []);

  const commit = () => {
    const parsed = HistoryName.safeParse(draft);
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'The name is not valid.');
      return;
    }
    if (parsed.data !== entry.name) onRename(parsed.data);
    stop(true);
  };

  return (
    <li className="ep-row ep-hist-row">
      <div className="ep-row__main">
        {editing ? (
          <form
            className="ep-hist-rename"
            onSubmit={(event) => {
              event.preventDefault();
              commit();
            }}
          >
            <input
              ref={inputRef}
              className="ep-input"
              aria-label={`New name for “${title}”`}
              value={draft}
              maxLength={HISTORY_NAME_MAX}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${ids}-problem` : undefined}
              onChange={(event) => setDraft(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Escape') {
                  event.preventDefault();
                  event.stopPropagation();
                  stop(true);
                }
              }}
            />
            <div className="ep-button-row">
              <button type="submit" className="ep-button ep-button--primary">
                Save name
              </button>
              <button type="button" className="ep-button" onClick={() => stop(true)}>
                Cancel
              </button>
            </div>
            {problem ? (
              <p id={`${ids}-problem`} className="ep-error" role="alert">
                {problem}
              </p>
            ) : null}
          </form>
        ) : (
          <p className="ep-hist-name">
            <span>{title}</span>
            {isAutomatic(entry) ? <span className="ep-badge ep-badge--quiet">Automatic</span> : null}
          </p>
        )}
        <p className="ep-row__meta">
          <time dateTime={entry.created} title={formatDateTime(entry.created)}>
            {formatRelative(entry.created, now)}
          </time>
          <span>Revision {entry.revision}</span>
        </p>
        {editing ? null : (
          <div className="ep-row__actions" role="group" aria-label={`Actions for “${title}”`}>
            <button
              ref={renameRef}
              type="button"
              className="ep-link-button"
              onClick={() => {
                setDraft(entry.name ?? '');
                setEditing(true);
              }}
            >
              Rename
            </button>
            <button type="button" className="ep-link-button" onClick={onRestore}>
              Restore
            </button>
            <button type="button" className="ep-link-button ep-hist-delete" onClick={onDelete}>
              Delete
            </button>
          </div>
        )}
      </div>
    </li>
  );
}
