/**
 * History: "Save version" (named or not), the map's versions newest first, each renamed in
 * place, deleted, or restored (the current map is kept as a version first, so a restore is
 * undone by restoring that one); the audit log to download, and the timeline of every event.
 * Rename and delete are optimistic (spec §4, see history-edits.ts); saving and restoring wait
 * for the server. Only the owner (or an admin) sees this; an explorer gets a note instead.
 */
import { useEffect, useId, useMemo, useState } from 'react';
import type { HistoryEntry } from '../../../../../events/read-models';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { api } from '../../../lib/api';
import { useHistoryEdits } from './history-edits';
import { describe, errorOf, SaveVersion, VersionRow } from './history-versions';
import './panels.css';
import './history.css';

export { isAutomatic } from './history-versions';

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
