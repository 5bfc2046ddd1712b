/**
 * "Data source" (issue 30 item 4): the map's locations from a sheet or URL (a published Google
 * Sheet as CSV, any CSV, GeoJSON or KML), keyed by a column, synced by hand ("Sync now") or
 * hourly or daily by the server. The first sync is previewed (what it would add) before it is
 * applied; each sync is recorded as one import, so the editor makes it one undo step. The last
 * sync and the last failure (the map keeps its data) are read from `GET …/data-source`.
 */
import { useEffect, useId, useState } from 'react';
import type { DataSource, SyncAnswer, SyncSchedule } from '../../../../../events/map-data-source';
import type { ImportPreview } from '../../../../../events/map-import';
import { api, callFunction, toApiError } from '../../../lib/api';

interface DataSourceState {
  source: DataSource | null;
  lastSyncAt: string | null;
  lastError: string | null;
}

export interface DataSourceSectionProps {
  mapId: string;
  /** A sync is about to be recorded (the editor notes where its events will start). */
  onImportStart?: () => void;
  /** The server recorded a sync (the editor makes it an undo step). */
  onImported?: (preview: ImportPreview, name: string) => void;
}

const SCHEDULES: Array<[SyncSchedule, string]> = [
  ['manual', 'Only when I press Sync now'],
  ['hourly', 'Every hour'],
  ['daily', 'Every day'],
];

export function DataSourceSection({ mapId, onImportStart, onImported }: DataSourceSectionProps) {
  const ids = useId();
  const [state, setState] = useState<DataSourceState | null>(null);
  const [url, setUrl] = useState('');
  const [keyColumn, setKeyColumn] = useState('');
  const [schedule, setSchedule] = useState<SyncSchedule>('manual');
  const [busy, setBusy] = useState<null | 'save' | 'sync'>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<SyncAnswer | null>(null);

  const load = async () => {
    const { result: read } = await api.get<DataSourceState>(`/api/maps/${encodeURIComponent(mapId)}/data-source`);
    setState(read);
    if (read.source) {
      setUrl(read.source.url);
      setKeyColumn(read.source.keyColumn);
      setSchedule(read.source.schedule);
    }
  };
  useEffect(() => {
    load().catch((failure: unknown) => setError(toApiError(failure).message));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mapId]);

  const save = async () => {
    setBusy('save');
    setError(null);
    try {
      await callFunction('setMapDataSource', { mapId, url: url.trim(), keyColumn: keyColumn.trim(), schedule, ...(state?.source?.mapping ? { mapping: state.source.mapping } : {}), ...(state?.source?.name ? { name: state.source.name } : {}) });
      await load();
    } catch (failure) {
      setError(toApiError(failure).message);
    } finally {
      setBusy(null);
    }
  };

  const sync = async (preview: boolean) => {
    setBusy('sync');
    setError(null);
    try {
      if (!preview) onImportStart?.();
      const { result: answer } = await callFunction('syncMapNow', { mapId, preview });
      setResult(answer);
      if (!preview && answer.revision !== null) onImported?.(answer, answer.sync.summary);
      await load();
    } catch (failure) {
      setError(toApiError(failure).message);
    } finally {
      setBusy(null);
    }
  };

  const saved = state?.source ?? null;
  const changed = !saved || saved.url !== url.trim() || saved.keyColumn !== keyColumn.trim() || saved.schedule !== schedule;
  const firstSync = saved !== null && state?.lastSyncAt === null;
  const previewed = result !== null && result.revision === null && firstSync;
  return (
    <section className="ep-section" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`} className="ep-section__title">
        Data source
      </h3>
      <p className="ep-hint">Keep the locations in step with a sheet or file on the web: a published Google Sheet (as CSV), a CSV, GeoJSON or KML address.</p>
      <div className="ep-field">
        <label htmlFor={`${ids}-url`}>Address</label>
        <input id={`${ids}-url`} className="ep-input" type="url" inputMode="url" placeholder="https://…" value={url} onChange={(event) => setUrl(event.target.value)} />
      </div>
      <div className="ep-field">
        <label htmlFor={`${ids}-key`}>Key column</label>
        <input id={`${ids}-key`} className="ep-input" value={keyColumn} placeholder="id" aria-describedby={`${ids}-key-hint`} onChange={(event) => setKeyColumn(event.target.value)} />
        <p id={`${ids}-key-hint`} className="ep-hint">
          The column that names each row the same way every time (a store number): it becomes the location’s id.
        </p>
      </div>
      <div className="ep-field">
        <label htmlFor={`${ids}-schedule`}>Sync</label>
        <select id={`${ids}-schedule`} className="ep-input" value={schedule} onChange={(event) => setSchedule(event.target.value as SyncSchedule)}>
          {SCHEDULES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div className="ep-button-row">
        <button type="button" className="ep-button" onClick={() => void save()} disabled={busy !== null || !changed || url.trim() === '' || keyColumn.trim() === ''} aria-busy={busy === 'save' || undefined}>
          {busy === 'save' ? 'Saving…' : 'Save data source'}
        </button>
        {saved && !changed ? (
          <button
            type="button"
            className="ep-button ep-button--primary"
            onClick={() => void sync(firstSync && !previewed)}
            disabled={busy !== null}
            aria-busy={busy === 'sync' || undefined}
          >
            {busy === 'sync' ? 'Syncing…' : firstSync && !previewed ? 'Preview first sync' : previewed ? 'Apply first sync' : 'Sync now'}
          </button>
        ) : null}
      </div>
      <div role="status" aria-live="polite">
        {result ? (
          <p className="ep-hint">
            {result.revision === null && firstSync ? `The first sync would add ${result.sync.added} locations. Apply it to import them.` : result.revision === null ? 'Nothing changed at the source.' : `${result.sync.summary}.`}
          </p>
        ) : state?.lastSyncAt ? (
          <p className="ep-hint">Last synced {new Date(state.lastSyncAt).toLocaleString()}.</p>
        ) : null}
      </div>
      {error ?? state?.lastError ? (
        <p className="ep-error" role="alert">
          {error ?? `The last sync failed, so the map kept its data: ${state?.lastError ?? ''}`}
        </p>
      ) : null}
    </section>
  );
}
