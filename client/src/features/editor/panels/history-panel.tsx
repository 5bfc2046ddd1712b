/**
 * History: "Save version" (named or not), the map's versions newest first, each renamed in
 * place, deleted, or restored (the current map is kept as a version first, so a restore is
 * undone by restoring that one); the audit log to download, and the timeline of every event.
 * Rename and delete are optimistic (spec §4, see history-edits.ts); saving and restoring wait
 * for the server. Only the owner (or an admin) sees this; an explorer gets a note instead.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { HISTORY_NAME_MAX, HistoryName } from '../../../../../events/map';
import type { HistoryEntry } from '../../../../../events/read-models';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { api, toApiError } from '../../../lib/api';
import { formatDateTime, formatRelative } from '../history-time';
import { entryTitle, useHistoryEdits } from './history-edits';
import './panels.css';
import './history.css';

export interface HistoryPanelProps {
  mapId: string;
  /** The server's history entries, oldest first; null when exploring someone else's map. */
  history: readonly HistoryEntry[] | null;
  onOpenTimeline: () => void;
  /** Said after a restore (the editor's toast). */
  onRestored?: (message: string) => void;
  /** A viewer's: the versions are shown but not saved, renamed, restored or deleted; the timeline and audit log stay open. */
  readOnly?: boolean;
}

/** The product's own entries: before every restore (unnamed checkpoints look like any other). */
export function isAutomatic(entry: Pick<HistoryEntry, 'name' | 'auto'>): boolean {
  // Entries recorded before the list kept the flag: the product's own names say so.
  return entry.auto ?? entry.name?.startsWith('Before restoring') ?? false;
}

const describe = (entry: HistoryEntry) => entryTitle(entry, formatDateTime);
const errorOf = (error: unknown) => toApiError(error).message;

export function HistoryPanel({ mapId, history, onOpenTimeline, onRestored, readOnly = false }: HistoryPanelProps) {
  if (history === null) {
    return (
      <div className="ep-panel">
        <p className="ep-note" role="note">
          Versions and the timeline belong to the map&apos;s owner. Save a copy to your maps to keep versions of your own.
        </p>
      </div>
    );
  }
  return <OwnHistory mapId={mapId} history={history} onOpenTimeline={onOpenTimeline} readOnly={readOnly} {...(onRestored ? { onRestored } : {})} />;
}

function OwnHistory({ mapId, history, onOpenTimeline, onRestored, readOnly = false }: HistoryPanelProps & { history: readonly HistoryEntry[] }) {
  const ids = useId();
  const calls = useMemo(
    () => ({
      rename: (historyMapId: string, name: string) => api.callFunction('setMapHistoryName', { mapId, historyMapId, name }),
      remove: (historyMapId: string) => api.callFunction('deleteMapHistory', { mapId, historyMapId }),
    }),
    [mapId],
  );
  const { entries, error, rename, remove, dismissError } = useHistoryEdits(history, calls, describe, errorOf);
  const newestFirst = useMemo(() => [...entries].reverse(), [entries]);
  const [deletingId, setDeletingId] = useState<string | null>(null);
  const [restoringId, setRestoringId] = useState<string | null>(null);
  const [restoreBusy, setRestoreBusy] = useState(false);
  const [restoreError, setRestoreError] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);

  const deleting = entries.find((entry) => entry.id === deletingId) ?? null;
  const restoring = entries.find((entry) => entry.id === restoringId) ?? null;

  const restore = async () => {
    if (!restoring) return;
    setRestoreBusy(true);
    setRestoreError(null);
    try {
      await api.callFunction('restoreMapHistory', { mapId, historyMapId: restoring.id });
      setRestoringId(null);
      onRestored?.(`Restored “${describe(restoring)}”. The map as it was is kept as a version.`);
    } catch (failure) {
      setRestoreError(errorOf(failure));
    } finally {
      setRestoreBusy(false);
    }
  };

  return (
    <div className="ep-panel ep-hist">
      <fieldset className="ed-readonly" disabled={readOnly}>
      <SaveVersion mapId={mapId} />

      <section className="ep-section" aria-labelledby={`${ids}-versions`}>
        <h3 id={`${ids}-versions`} className="ep-section__title">
          Versions
        </h3>
        {error ? (
          <div className="ep-hist-error" role="alert">
            <span>{error}</span>
            <button type="button" className="ep-link-button" onClick={dismissError}>
              Dismiss
            </button>
          </div>
        ) : null}
        {newestFirst.length === 0 ? (
          <p className="ep-empty">No versions yet. Save one to come back to this map as it is now.</p>
        ) : (
          <ul className="ep-list ep-hist-list" aria-labelledby={`${ids}-versions`}>
            {newestFirst.map((entry) => (
              <VersionRow
                key={entry.id}
                entry={entry}
                now={now}
                onRename={(name) => rename(entry.id, name)}
                onDelete={() => setDeletingId(entry.id)}
                onRestore={() => {
                  setRestoreError(null);
                  setRestoringId(entry.id);
                }}
              />
            ))}
          </ul>
        )}
      </section>
      </fieldset>

      <section className="ep-section" aria-labelledby={`${ids}-audit`}>
        <h3 id={`${ids}-audit`} className="ep-section__title">
          Every change
        </h3>
        <p className="ep-intro">The timeline shows each event in words and the map at any point of it.</p>
        <div className="ep-button-row">
          <button type="button" className="ep-button" onClick={onOpenTimeline}>
            Open the timeline
          </button>
        </div>
        <p className="ep-hist-downloads">
          Download the audit log:{' '}
          <a href={`/api/maps/${encodeURIComponent(mapId)}/audit.csv`} download>
            CSV
          </a>{' '}
          ·{' '}
          <a href={`/api/maps/${encodeURIComponent(mapId)}/audit.json`} download>
            JSON
          </a>
        </p>
      </section>

      <ConfirmDialog
        open={deleting !== null}
        title="Delete this version?"
        confirmLabel="Delete version"
        onCancel={() => setDeletingId(null)}
        onConfirm={() => {
          if (deleting) remove(deleting.id);
          setDeletingId(null);
        }}
      >
        <p className="ep-dialog-text">“{deleting ? describe(deleting) : ''}” leaves the history. The map itself does not change, and the timeline still shows every event.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={restoring !== null}
        title="Restore this version?"
        confirmLabel="Restore"
        tone="primary"
        busy={restoreBusy}
        error={restoreError}
        onCancel={() => setRestoringId(null)}
        onConfirm={() => void restore()}
      >
        <p className="ep-dialog-text">
          The map goes back to “{restoring ? describe(restoring) : ''}” for everyone editing it. The current map is kept as a version first, so you can
          restore it again.
        </p>
      </ConfirmDialog>
    </div>
  );
}

/** "Save version": an optional name; busy until the server answers. */
function SaveVersion({ mapId }: { mapId: string }) {
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

interface VersionRowProps {
  entry: HistoryEntry;
  now: number;
  onRename: (name: string) => void;
  onDelete: () => void;
  onRestore: () => void;
}

function VersionRow({ entry, now, onRename, onDelete, onRestore }: VersionRowProps) {
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
