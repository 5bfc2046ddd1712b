/**
 * "Make locations from regions": the regions of a floor's SVG (every shape with an id the server
 * found, server/import/svg-regions.ts), to tick, and one import that makes a location of each
 * ticked one, linked to its region.
 *
 * The server does the reading and the recording: the floor's stored drawing is sent to
 * `POST /api/maps/{id}/import?layer=<floor>` for the preview that fills the list, then again
 * with `apply=1` and the regions left out (`skipRegions`) or ticked although their ids look made
 * up (`includeRegions`). Regions a location of the floor stands for already are shown, not offered.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ImportOptions, ImportPreview } from '../../../../../events/map-import';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { ApiError } from '../../../lib/api';
import { sendImport } from '../../../lib/import/import-api';
import './regions-dialog.css';

export interface RegionsFloor {
  id: string;
  name: string;
  /** Where its SVG is served (`/files/{id}`). */
  url: string;
}

export interface RegionsDialogProps {
  mapId: string;
  floor: RegionsFloor;
  /** The drawing and its preview already fetched (after an upload), else fetched on opening. */
  initial?: { file: File; preview: ImportPreview } | null;
  onClose(): void;
  /** The server is about to record the import (the editor marks where its undo step starts). */
  onApplying?(): void;
  onApplied(preview: ImportPreview): void;
}

type Region = ImportPreview['regions'][number];

/** The floor's drawing as a file to send, and the server's preview of its regions on that floor. */
export async function previewRegions(mapId: string, floor: RegionsFloor, signal?: AbortSignal): Promise<{ file: File; preview: ImportPreview }> {
  let response: Response;
  try {
    response = await fetch(floor.url, { credentials: 'same-origin', ...(signal ? { signal } : {}) });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('internal', 'The drawing of this floor could not be loaded. Check your connection and try again.', 0);
  }
  if (!response.ok) throw new ApiError('not-found', `The drawing of this floor could not be loaded (${response.status}).`, response.status);
  const file = new File([await response.blob()], `${floor.name || 'floor'}.svg`, { type: 'image/svg+xml' });
  const preview = await sendImport({ mapId, files: [file], layer: floor.id }, signal ? { signal } : {});
  return { file, preview };
}

/** The ticks the server chose: regions it offers, not those linked already. */
function initialTicks(preview: ImportPreview): Set<string> {
  return new Set(preview.regions.filter((region) => region.selected && !region.linked).map((region) => region.id));
}

/** What to send: the regions unticked of those the server would take, and those ticked it would not. */
export function regionOptions(regions: readonly Region[], ticked: ReadonlySet<string>): ImportOptions {
  const skipRegions = regions.filter((region) => region.selected && !region.linked && !ticked.has(region.id)).map((region) => region.id);
  const includeRegions = regions.filter((region) => !region.selected && !region.linked && ticked.has(region.id)).map((region) => region.id);
  return { ...(skipRegions.length ? { skipRegions } : {}), ...(includeRegions.length ? { includeRegions } : {}) };
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export function RegionsDialog({ mapId, floor, initial = null, onClose, onApplying, onApplied }: RegionsDialogProps) {
  const ids = useId();
  const [preview, setPreview] = useState<ImportPreview | null>(initial?.preview ?? null);
  const [file, setFile] = useState<File | null>(initial?.file ?? null);
  const [ticked, setTicked] = useState<Set<string>>(() => (initial ? initialTicks(initial.preview) : new Set()));
  const [filter, setFilter] = useState('');
  const [status, setStatus] = useState<'loading' | 'ready' | 'applying'>(initial ? 'ready' : 'loading');
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const filterRef = useRef<HTMLInputElement>(null);
  const controller = useRef<AbortController | null>(null);

  // The preview (again, on a retry), and the drawing kept to send with the apply.
  useEffect(() => {
    if (initial && attempt === 0) return;
    const abort = new AbortController();
    controller.current = abort;
    setError(null);
    setStatus('loading');
    previewRegions(mapId, floor, abort.signal).then(
      ({ file: drawing, preview: answer }) => {
        setFile(drawing);
        setPreview(answer);
        setTicked(initialTicks(answer));
        setStatus('ready');
      },
      (failure: unknown) => {
        if (abort.signal.aborted) return;
        setError(failure instanceof ApiError ? failure.message : 'The regions could not be read. Try again.');
        setStatus('ready');
      },
    );
    return () => abort.abort();
    // `initial` only matters for the first answer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mapId, floor.id, floor.url, attempt]);

  const regions = useMemo(() => preview?.regions ?? [], [preview]);
  const words = filter.trim().toLowerCase();
  const shown = useMemo(() => (words ? regions.filter((region) => region.title.toLowerCase().includes(words) || region.id.toLowerCase().includes(words)) : regions), [regions, words]);
  const offered = regions.filter((region) => !region.linked);
  const linkedCount = regions.length - offered.length;
  const chosen = offered.filter((region) => ticked.has(region.id)).length;
  const notes = (preview?.problems ?? []).filter((problem) => problem.row === null).map((problem) => problem.message);

  const setMany = (list: readonly Region[], on: boolean) =>
    setTicked((current) => {
      const next = new Set(current);
      for (const region of list) {
        if (region.linked) continue;
        if (on) next.add(region.id);
        else next.delete(region.id);
      }
      return next;
    });

  const apply = async () => {
    if (!file || chosen === 0) return;
    setStatus('applying');
    setError(null);
    onApplying?.();
    try {
      const applied = await sendImport({ mapId, files: [file], layer: floor.id, apply: true, options: regionOptions(regions, ticked) });
      onApplied(applied);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The locations could not be made. Try again.');
      setStatus('ready');
    }
  };

  const busy = status === 'applying';
  const loading = status === 'loading';
  const summary = loading
    ? 'Reading the drawing…'
    : `${plural(chosen, 'region', 'regions')} of ${offered.length.toLocaleString('en-US')} ticked${words ? ` · ${shown.length.toLocaleString('en-US')} shown` : ''}${linkedCount ? ` · ${plural(linkedCount, 'is a location', 'are locations')} already` : ''}`;

  return (
    <Modal
      open
      title={`Make locations from the regions of ${floor.name}`}
      description="Each ticked region becomes a location, linked to its shape and named after it. Ids a drawing program made up (like path3677) start unticked."
      onClose={() => {
        controller.current?.abort();
        onClose();
      }}
      busy={busy}
      initialFocus={filterRef}
      className="rd-dialog"
      footer={
        <div className="rd-foot">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button onClick={() => void apply()} disabled={loading || busy || chosen === 0 || !file} loading={busy}>
            {busy ? 'Making locations…' : `Make ${plural(chosen, 'location', 'locations')}`}
          </Button>
        </div>
      }
    >
      <div className="rd-tools">
        <label className="rd-filter" htmlFor={`${ids}-filter`}>
          <span className="rd-filter__label">Filter regions</span>
          <input
            ref={filterRef}
            id={`${ids}-filter`}
            type="search"
            className="rd-filter__input"
            placeholder="Name or id"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            aria-controls={`${ids}-list`}
            aria-describedby={`${ids}-summary`}
          />
        </label>
        <div className="rd-all" role="group" aria-label={words ? 'Tick the regions shown' : 'Tick regions'}>
          <button type="button" className="rd-link" onClick={() => setMany(shown, true)} disabled={loading || busy || shown.length === 0}>
            {words ? 'Select shown' : 'Select all'}
          </button>
          <button type="button" className="rd-link" onClick={() => setMany(shown, false)} disabled={loading || busy || shown.length === 0}>
            {words ? 'Clear shown' : 'Select none'}
          </button>
        </div>
      </div>
      <p id={`${ids}-summary`} className="rd-summary" role="status" aria-live="polite">
        {summary}
      </p>
      {error ? (
        <div className="rd-error" role="alert">
          <p>{error}</p>
          {!preview ? (
            <button type="button" className="rd-link" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </button>
          ) : null}
        </div>
      ) : null}
      {!loading && preview && regions.length > 0 ? (
        <ul id={`${ids}-list`} className="rd-list" aria-label={`Regions of ${floor.name}`}>
          {shown.map((region) => (
            <li key={region.id} className="rd-item" data-linked={region.linked || undefined}>
              <label className="rd-check">
                <input
                  type="checkbox"
                  checked={!region.linked && ticked.has(region.id)}
                  disabled={region.linked || busy}
                  onChange={(event) => setMany([region], event.target.checked)}
                />
                <span className="rd-check__title">{region.title}</span>
                {region.title !== region.id ? <span className="rd-check__id">{region.id}</span> : null}
                {region.linked ? <span className="rd-tag">already a location</span> : null}
              </label>
            </li>
          ))}
          {shown.length === 0 ? <li className="rd-empty">No region's name or id holds “{filter.trim()}”.</li> : null}
        </ul>
      ) : null}
      {notes.length > 0 ? (
        <ul className="rd-notes" aria-label="About this drawing">
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
    </Modal>
  );
}
