/**
 * "Make locations from regions": the regions of a floor's SVG (every shape with an id the server
 * found, server/import/svg-regions.ts), to tick, and one edit that makes a location of each
 * ticked one, linked to its region and named after it.
 *
 * It sits in the floors panel, beside the map (never over it): the canvas shows the floor, and
 * the shape of the row under the pointer or the focus is lit there (components/map/drawing-bridge.ts).
 * Titles come from the drawing: a shape's `<title>`, `inkscape:label` or `aria-label` (the
 * server reads them), else the text written inside the shape on the map (a room's number), else
 * the id. Bulk choices: all named, none, and what a pattern (`H8*`, or any words) shows.
 *
 * The server reads the regions: the floor's stored drawing is sent to
 * `POST /api/maps/{id}/import?layer=<floor>` for the preview that fills the list. The locations
 * are made here, as one edit of the editor (one undo step, saved like any other).
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { MAX_LOCATIONS, type MapDocument } from '../../../../../events/map-document';
import type { MapEdit } from '../../../../../events/map-edits';
import type { ImportPreview } from '../../../../../events/map-import';
import { onDrawingChange, spotlightRegion, textInsideRegions } from '../../../components/map/drawing-bridge';
import { Button } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api';
import { matchesPattern, offeredRegions, previewRegions, regionLocationEdits, type OfferedRegion, type Region, type RegionsFloor } from './regions-offer';
import './regions-dialog.css';

export { matchesPattern, offeredRegions, previewRegions, regionLocationEdits, type OfferedRegion, type RegionsFloor } from './regions-offer';

export interface RegionsDialogProps {
  mapId: string;
  floor: RegionsFloor;
  document: MapDocument;
  /** The drawing and its preview already fetched (after an upload), else fetched on opening. */
  initial?: { file: File; preview: ImportPreview } | null;
  onClose(): void;
  /** Gives the edits that make the locations (one undo step); answers why not when they do not fit the map. */
  onEdit(edits: MapEdit[]): string | null;
  /** The locations were made: how many. */
  onMade(count: number): void;
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export function RegionsDialog({ mapId, floor, document, initial = null, onClose, onEdit, onMade }: RegionsDialogProps) {
  const ids = useId();
  const [preview, setPreview] = useState<ImportPreview | null>(initial?.preview ?? null);
  const [ticked, setTicked] = useState<Set<string> | null>(null);
  const [filter, setFilter] = useState('');
  const [status, setStatus] = useState<'loading' | 'ready'>(initial ? 'ready' : 'loading');
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [texts, setTexts] = useState<Map<string, string> | null>(null);
  const filterRef = useRef<HTMLInputElement>(null);
  const opener = useRef<Element | null>(null);

  // The focus: to the filter on opening, back to what had it on closing.
  useEffect(() => {
    opener.current = globalThis.document.activeElement;
    filterRef.current?.focus();
    return () => {
      spotlightRegion(floor.id, null);
      const back = opener.current;
      if (back instanceof HTMLElement && back.isConnected) back.focus();
    };
    // Once, for the dialog's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The preview (again, on a retry).
  useEffect(() => {
    if (initial && attempt === 0) return;
    const abort = new AbortController();
    setError(null);
    setStatus('loading');
    previewRegions(mapId, floor, abort.signal).then(
      ({ preview: answer }) => {
        setPreview(answer);
        setTicked(null);
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

  // The text inside each shape, read from the drawing on the map (once it is there).
  const serverRegions = useMemo(() => preview?.regions ?? [], [preview]);
  useEffect(() => {
    if (serverRegions.length === 0) return;
    const read = () => {
      const found = textInsideRegions(floor.id, serverRegions.filter((region) => region.title === region.id).map((region) => region.id));
      if (found) setTexts(found);
    };
    read();
    return onDrawingChange(read);
  }, [floor.id, serverRegions]);

  const regions = useMemo(() => offeredRegions(serverRegions, texts), [serverRegions, texts]);
  const offered = regions.filter((region) => !region.linked);
  // Until the user ticks anything: every named region (a person's id or title, or text inside it).
  const chosenSet = ticked ?? new Set(offered.filter((region) => region.named).map((region) => region.id));
  const shown = useMemo(() => regions.filter((region) => matchesPattern(region, filter)), [regions, filter]);
  const linkedCount = regions.length - offered.length;
  const chosen = offered.filter((region) => chosenSet.has(region.id)).length;
  const notes = (preview?.problems ?? []).filter((problem) => problem.row === null).map((problem) => problem.message);
  const filtering = filter.trim() !== '';
  const fromText = regions.filter((region) => region.fromText).length;

  const setMany = (list: readonly OfferedRegion[], on: boolean, only = false) => {
    const next = new Set(only ? [] : chosenSet);
    for (const region of list) {
      if (region.linked) continue;
      if (on) next.add(region.id);
      else next.delete(region.id);
    }
    setTicked(next);
  };

  const make = () => {
    const edits = regionLocationEdits(document, floor.id, regions, chosenSet);
    if (edits.length === 0) return;
    if (document.locations.length + edits.length > MAX_LOCATIONS) {
      setError(`A map has at most ${MAX_LOCATIONS.toLocaleString('en-US')} locations: untick ${plural(document.locations.length + edits.length - MAX_LOCATIONS, 'region', 'regions')}.`);
      return;
    }
    const problem = onEdit(edits);
    if (problem) {
      setError(`The locations could not be made: ${problem.replace(/^[\w.]+: /, '')}`);
      return;
    }
    onMade(edits.length);
  };

  // Escape closes it while the focus is in it, or nowhere (after a button in it went away).
  const sectionRef = useRef<HTMLElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const focus = globalThis.document.activeElement;
      if (focus && focus !== globalThis.document.body && !sectionRef.current?.contains(focus)) return;
      event.preventDefault();
      closeRef.current();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  const loading = status === 'loading';
  const summary = loading
    ? 'Reading the drawing…'
    : `${plural(chosen, 'region', 'regions')} of ${offered.length.toLocaleString('en-US')} ticked${filtering ? ` · ${shown.length.toLocaleString('en-US')} shown` : ''}${linkedCount ? ` · ${plural(linkedCount, 'is a location', 'are locations')} already` : ''}`;
  const spot = (region: Region | null) => spotlightRegion(floor.id, region?.id ?? null);

  return (
    <section ref={sectionRef} className="rd-dialog" role="dialog" aria-modal="false" aria-labelledby={`${ids}-title`} aria-describedby={`${ids}-about`}>
      <div className="rd-head">
        <h3 id={`${ids}-title`} className="rd-title">
          Make locations from the regions of {floor.name}
        </h3>
        <button type="button" className="rd-close" aria-label="Close" onClick={onClose}>
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <p id={`${ids}-about`} className="rd-about">
        Each ticked region becomes a location, linked to its shape and named after it. Point at a row to see its shape on the map. Ids a drawing program made up (like path3677) start unticked unless text inside the shape names it.
      </p>
      <div className="rd-tools">
        <label className="rd-filter" htmlFor={`${ids}-filter`}>
          <span className="rd-filter__label">Filter regions</span>
          <input
            ref={filterRef}
            id={`${ids}-filter`}
            type="search"
            className="rd-filter__input"
            placeholder="Name, id, or a pattern like H8*"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            aria-controls={`${ids}-list`}
            aria-describedby={`${ids}-summary`}
          />
        </label>
        <div className="rd-all" role="group" aria-label={filtering ? 'Tick the regions shown' : 'Tick regions'}>
          <button type="button" className="rd-link" onClick={() => setMany(shown, true)} disabled={loading || shown.length === 0}>
            {filtering ? 'Select shown' : 'Select all'}
          </button>
          <button type="button" className="rd-link" onClick={() => setMany(shown, false)} disabled={loading || shown.length === 0}>
            {filtering ? 'Clear shown' : 'Select none'}
          </button>
          <button type="button" className="rd-link" onClick={() => setMany(offered.filter((region) => region.named), true, true)} disabled={loading || !offered.some((region) => region.named)}>
            All named
          </button>
        </div>
      </div>
      <p id={`${ids}-summary`} className="rd-summary" role="status" aria-live="polite">
        {summary}
        {fromText > 0 && !loading ? <span className="rd-summary__note"> · {plural(fromText, 'title', 'titles')} read from the text inside the shapes</span> : null}
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
        <ul id={`${ids}-list`} className="rd-list" aria-label={`Regions of ${floor.name}`} onMouseLeave={() => spot(null)}>
          {shown.map((region) => (
            <li key={region.id} className="rd-item" data-linked={region.linked || undefined} onMouseEnter={() => spot(region)}>
              <label className="rd-check">
                <input
                  type="checkbox"
                  checked={!region.linked && chosenSet.has(region.id)}
                  disabled={region.linked}
                  onChange={(event) => setMany([region], event.target.checked)}
                  onFocus={() => spot(region)}
                  onBlur={() => spot(null)}
                />
                <span className="rd-check__title">{region.title}</span>
                {region.title !== region.id ? <span className="rd-check__id">{region.id}</span> : null}
                {region.fromText ? <span className="rd-tag rd-tag--text">text inside</span> : null}
                {region.linked ? <span className="rd-tag">already a location</span> : null}
              </label>
            </li>
          ))}
          {shown.length === 0 ? <li className="rd-empty">No region's name or id matches “{filter.trim()}”.</li> : null}
        </ul>
      ) : null}
      {notes.length > 0 ? (
        <ul className="rd-notes" aria-label="About this drawing">
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
      <div className="rd-foot">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={make} disabled={loading || chosen === 0}>
          {`Make ${plural(chosen, 'location', 'locations')}`}
        </Button>
      </div>
    </section>
  );
}
