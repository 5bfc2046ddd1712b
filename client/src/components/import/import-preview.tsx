/**
 * The server's preview of an import, shown before anything changes: what the file was taken
 * for, what it brings (counts), where it lands floor by floor, which column fills which field (a
 * table's, changeable), the first rows as they will be (or why one is left out), the problems
 * row by row, an SVG's regions to untick, and a warning when the file replaces the whole map.
 * Every word comes from the plan the apply records (events/import-planner.ts): nothing here
 * guesses where a row goes.
 */
import { useId, type ReactNode } from 'react';
import { IMPORT_FIELDS, IMPORT_FORMAT_NAMES, type ColumnMapping, type ImportField, type ImportOptions, type ImportPreview } from '../../../../events/map-import';
import { LOCATION_PRECISIONS, type LocationPrecision } from '../../../../events/map-document';
import { regionChosen } from '../../lib/import/import-machine';
import { FIELD_LABELS, FIELD_ORDER, MAIN_FIELDS } from './import-fields';
import { Landing, ProblemList, SampleTable } from './import-rows';
import { count, type PartHeading } from './import-words';

export { PROBLEMS_SHOWN } from './import-rows';

export interface ImportPreviewViewProps {
  preview: ImportPreview;
  fileNames: readonly string[];
  mapping: ColumnMapping;
  options: ImportOptions;
  /** A newer preview is on its way: this one may be out of date. */
  stale: boolean;
  /** What the map holds now, for the warning of a file that replaces it. */
  current?: { layers: number; locations: number };
  onColumn: (field: ImportField, column: string | null) => void;
  onRegion: (id: string, on: boolean) => void;
  onAllRegions: (on: boolean) => void;
  headingRef?: React.Ref<HTMLHeadingElement>;
  /** The preview's heading level (its parts' are one below): 4 in the editor's panel, 3 on a page. */
  headingLevel?: 3 | 4;
  /** What became of a Mapfold JSON's drawings on other sites. */
  notes?: readonly string[];
  /** Apply and Cancel. */
  actions: ReactNode;
}

export function ImportPreviewView({ preview, fileNames, mapping, options, stale, current, onColumn, onRegion, onAllRegions, headingRef, headingLevel = 4, notes = [], actions }: ImportPreviewViewProps) {
  const id = useId();
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  const part = headingLevel === 3 ? 'h4' : 'h5';
  const [main, ...attached] = fileNames;
  return (
    <section className="im-preview" aria-labelledby={`${id}-title`} aria-busy={stale || undefined} data-stale={stale ? 'true' : undefined}>
      <header className="im-preview__head">
        <Heading className="im-preview__title" id={`${id}-title`} ref={headingRef} tabIndex={-1}>
          <span className="im-file">{main}</span>
        </Heading>
        <p className="im-preview__format">
          Read as <strong>{IMPORT_FORMAT_NAMES[preview.format]}</strong>
          {attached.length > 0 ? <>, with {count(attached.length, 'file', 'files')} alongside ({attached.join(', ')})</> : null}.
        </p>
      </header>

      <Counts preview={preview} />

      {preview.geocoding ? <Placing geocoding={preview.geocoding} /> : null}

      {!preview.replaces && (preview.floors.length > 0 || preview.removedFloor !== null) ? <Landing preview={preview} heading={part} /> : null}

      {preview.replaces ? (
        <p className="im-warning" role="note">
          <strong>This file replaces the whole map.</strong> Its floors, locations and groups take the place of this map’s
          {current ? ` (${count(current.layers, 'floor', 'floors')}, ${count(current.locations, 'location', 'locations')})` : ''}. You can undo it.
        </p>
      ) : null}

      {notes.length > 0 ? (
        <ul className="im-notes" aria-label="Floor drawings from other sites">
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}

      {preview.availableColumns.length > 0 ? <MappingTable preview={preview} mapping={mapping} onColumn={onColumn} heading={part} /> : null}

      {preview.regions.length > 0 ? <RegionList preview={preview} options={options} onRegion={onRegion} onAllRegions={onAllRegions} /> : null}

      {preview.sample.length > 0 ? <SampleTable preview={preview} heading={part} /> : null}

      {preview.problemCount > 0 ? <ProblemList preview={preview} heading={part} /> : null}

      <div className="im-actions">{actions}</div>
    </section>
  );
}

const PRECISION_WORDS: Record<LocationPrecision, string> = { exact: 'exactly', street: 'at the street address', postcode: 'at the postcode', city: 'in the city', region: 'in the region', country: 'in the country' };

/** Rows placed by their address (geocoding), by how precisely, and those that could not be (the problems say why). */
function Placing({ geocoding }: { geocoding: NonNullable<ImportPreview['geocoding']> }) {
  const placed = LOCATION_PRECISIONS.filter((precision) => (geocoding.placed[precision] ?? 0) > 0).map((precision) => `${geocoding.placed[precision]!.toLocaleString('en-US')} ${PRECISION_WORDS[precision]}`);
  return (
    <p className="im-hint" data-part="geocoding">
      Placed by address{geocoding.remote ? '' : ' (built-in geocoder: cities and postcodes)'}: {placed.length > 0 ? placed.join(', ') : 'none'}
      {geocoding.unplaced > 0 ? <>; {count(geocoding.unplaced, 'row', 'rows')} could not be placed (see the problems) and {geocoding.unplaced === 1 ? 'comes' : 'come'} in without a position</> : null}.
    </p>
  );
}

function Counts({ preview }: { preview: ImportPreview }) {
  const { counts } = preview;
  // Merged into the map, the floors and groups counted are the new ones; a whole map replaces them all.
  const fresh = preview.replaces ? '' : 'new ';
  const items: Array<{ n: number; one: string; many: string; kind?: string }> = [
    { n: counts.locations, one: counts.updated > 0 ? 'new location' : 'location', many: counts.updated > 0 ? 'new locations' : 'locations', kind: 'main' },
    { n: counts.updated, one: 'existing location updated', many: 'existing locations updated' },
    { n: counts.layers, one: `${fresh}floor`, many: `${fresh}floors` },
    { n: counts.groups, one: `${fresh}group`, many: `${fresh}groups` },
    { n: counts.regionsLinked, one: 'linked to a region', many: 'linked to regions' },
    { n: counts.skipped, one: 'row left out', many: 'rows left out', kind: 'skipped' },
  ];
  return (
    <ul className="im-counts" aria-label="What the file brings">
      {items
        .filter((item) => item.kind === 'main' || item.n > 0)
        .map((item) => (
          <li key={item.many} className="im-count" data-kind={item.kind}>
            <span className="im-count__n">{item.n.toLocaleString('en-US')}</span> <span className="im-count__what">{item.n === 1 ? item.one : item.many}</span>
          </li>
        ))}
    </ul>
  );
}

function MappingTable({ preview, mapping, onColumn, heading: Title }: { preview: ImportPreview; mapping: ColumnMapping; onColumn: (field: ImportField, column: string | null) => void; heading: PartHeading }) {
  const id = useId();
  const table = preview.format === 'csv' || preview.format === 'mapplic-csv';
  const what = table ? 'column' : 'property';
  const shown = IMPORT_FIELDS.filter((field) => MAIN_FIELDS.includes(field) || mapping[field] !== undefined).sort(
    (a, b) => rank(a) - rank(b),
  );
  const more = IMPORT_FIELDS.filter((field) => !shown.includes(field)).sort((a, b) => rank(a) - rank(b));
  const row = (field: ImportField) => (
    <div className="im-map__row" key={field} data-mapped={mapping[field] ? 'true' : undefined}>
      <label className="im-map__field" htmlFor={`${id}-field-${field}`}>
        {FIELD_LABELS[field]}
      </label>
      <select
        id={`${id}-field-${field}`}
        className="im-select"
        value={mapping[field] ?? ''}
        onChange={(event) => onColumn(field, event.target.value || null)}
      >
        <option value="">Not imported</option>
        {preview.availableColumns.map((column) => (
          <option key={column} value={column}>
            {column}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <div className="im-block" role="group" aria-labelledby={`${id}-title`}>
      <Title className="im-block__title" id={`${id}-title`}>
        {table ? 'Columns' : 'Properties'}
      </Title>
      <p className="im-hint">
        Which {what} of the file fills each field. The guesses are chosen already; change one and the preview follows.
      </p>
      <div className="im-map">
        <div className="im-map__head" aria-hidden="true">
          <span>Mapfold field</span>
          <span>Your file’s {what}</span>
        </div>
        {shown.map(row)}
      </div>
      {more.length > 0 ? (
        <details className="im-more">
          <summary>More fields ({more.map((field) => FIELD_LABELS[field].toLowerCase()).slice(0, 4).join(', ')}…)</summary>
          <div className="im-map">{more.map(row)}</div>
        </details>
      ) : null}
      {preview.columns.ignored.length > 0 ? (
        <p className="im-hint">
          Not imported: <span className="im-columns">{preview.columns.ignored.join(', ')}</span>
        </p>
      ) : null}
    </div>
  );
}

/** Fields in the order people read them (an address's parts together), any other after them. */
function rank(field: ImportField): number {
  const place = FIELD_ORDER.indexOf(field);
  return place >= 0 ? place : FIELD_ORDER.length + IMPORT_FIELDS.indexOf(field);
}

function RegionList({ preview, options, onRegion, onAllRegions }: { preview: ImportPreview; options: ImportOptions; onRegion: (id: string, on: boolean) => void; onAllRegions: (on: boolean) => void }) {
  const id = useId();
  const chosen = preview.regions.filter((region) => regionChosen(options, region)).length;
  return (
    <fieldset className="im-block im-regions">
      <legend className="im-block__title">Regions</legend>
      <p className="im-hint" id={`${id}-summary`}>
        {count(chosen, 'region', 'regions')} of {preview.regions.length.toLocaleString('en-US')} become locations. Ids a drawing program made up (like path3677) are left out unless you tick them.
      </p>
      <div className="im-regions__all">
        <button type="button" className="im-link" onClick={() => onAllRegions(true)}>
          Tick all
        </button>
        <button type="button" className="im-link" onClick={() => onAllRegions(false)}>
          Untick all
        </button>
      </div>
      <ul className="im-regions__list">
        {preview.regions.map((region) => (
          <li key={region.id}>
            <label className="im-check">
              <input type="checkbox" checked={regionChosen(options, region)} onChange={(event) => onRegion(region.id, event.target.checked)} />
              <span className="im-check__title">{region.title}</span>
              {region.title !== region.id ? <span className="im-check__id">{region.id}</span> : null}
              {region.linked ? <span className="im-tag">already a location</span> : null}
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
