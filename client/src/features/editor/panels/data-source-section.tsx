/**
 * "Data source" (issue 30 item 4): the map's locations from a sheet or URL (a published Google
 * Sheet as CSV, any CSV, GeoJSON or KML), keyed by a column, synced by hand ("Sync now") or
 * hourly or daily by the server. The first sync is previewed (what it would add) before it is
 * applied; each sync is recorded as one import, so the editor makes it one undo step. The last
 * sync and the last failure (the map keeps its data) are read from `GET …/data-source`, with the
 * fields edited in Mapfold that syncs left alone (overridden), for the owner to keep or replace
 * with the source's value (data-source-overrides.tsx).
 */
import { useEffect, useId, useState } from 'react';
import type { DataSource, OverriddenField, SyncAnswer, SyncSchedule } from '../../../../../events/map-data-source';
import type { MapDocument } from '../../../../../events/map-document';
import type { ImportPreview } from '../../../../../events/map-import';
import { api, callFunction, toApiError } from '../../../lib/api';
import { DataSourceOverrides, type OverrideChoiceItem } from './data-source-overrides';

interface DataSourceState {
  source: DataSource | null;
  lastSyncAt: string | null;
  lastError: string | null;
  /** Absent from servers before overridden fields were kept. */
  overrides?: OverriddenField[];
  moreOverrides?: number;
}

/** Answers of at most this many fields per call (the function's limit). */
const RESOLVE_BATCH = 1000;
const fieldCount = (count: number) => (count === 1 ? '1 field' : `${count.toLocaleString('en')} fields`);

export interface DataSourceSectionProps {
  mapId: string;
  /** A sync is about to be recorded (the editor notes where its events will start). */
  onImportStart?: () => void;
  /** The server recorded a sync (the editor makes it an undo step). */
  onImported?: (preview: ImportPreview, name: string) => void;
  /** The server recorded the source's values for overridden fields up to `revision` (an undo step), said in `notice`. */
  onServerStep?: (revision: string, notice: string) => void;
  /** The map, for its floors' and groups' names in the overridden fields' values. */
  document?: MapDocument;
}

const SCHEDULES: Array<[SyncSchedule, string]> = [
  ['manual', 'Only when I press Sync now'],
  ['hourly', 'Every hour'],
  ['daily', 'Every day'],
];

export function DataSourceSection({ mapId, onImportStart, onImported, onServerStep, document }: DataSourceSectionProps) {
  const ids = useId();
  const [state, setState] = useState<DataSourceState | null>(null);
  const [url, setUrl] = useState('');
  const [keyColumn, setKeyColumn] = useState('');
  const [schedule, setSchedule] = useState<SyncSchedule>('manual');
  const [busy, setBusy] = useState<null | 'save' | 'sync' | 'resolve'>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<SyncAnswer | null>(null);
  const [resolved, setResolved] = useState<string | null>(null);

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

  const resolve = async (choices: OverrideChoiceItem[]) => {
    setBusy('resolve');
    setError(null);
    setResolved(null);
    let kept = 0;
    let used = 0;
    try {
      for (let start = 0; start < choices.length; start += RESOLVE_BATCH) {
        const batch = choices.slice(start, start + RESOLVE_BATCH);
        if (batch.some((choice) => choice.choice === 'source')) onImportStart?.();
        const { result: answer } = await callFunction('resolveSyncOverride', { mapId, overrides: batch });
        kept += answer.kept;
        used += answer.used;
        const notice = `Used the source’s value for ${fieldCount(answer.used)}.`;
        if (answer.revision !== null) onServerStep?.(answer.revision, notice);
      }
      setResolved(
        [kept > 0 ? `Kept Mapfold’s value of ${fieldCount(kept)}: syncs leave ${kept === 1 ? 'it' : 'them'} alone.` : '', used > 0 ? `Used the source’s value for ${fieldCount(used)}.` : '']
          .filter(Boolean)
          .join(' ') || 'Nothing to change.',
      );
    } catch (failure) {
      setError(toApiError(failure).message);
    } finally {
      await load().catch(() => undefined);
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
            {result.sync.overridden > 0 ? ` ${fieldCount(result.sync.overridden)} edited in Mapfold ${result.sync.overridden === 1 ? 'was' : 'were'} kept (overridden).` : ''}
          </p>
        ) : state?.lastSyncAt ? (
          <p className="ep-hint">Last synced {new Date(state.lastSyncAt).toLocaleString()}.</p>
        ) : null}
        {resolved ? <p className="ep-hint">{resolved}</p> : null}
      </div>
      {saved ? <DataSourceOverrides overrides={state?.overrides ?? []} more={state?.moreOverrides ?? 0} busy={busy !== null} document={document} onResolve={(choices) => void resolve(choices)} /> : null}
      {error ?? state?.lastError ? (
        <p className="ep-error" role="alert">
          {error ?? `The last sync failed, so the map kept its data: ${state?.lastError ?? ''}`}
        </p>
      ) : null}
    </section>
  );
}
