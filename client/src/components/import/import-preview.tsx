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

type PartHeading = 'h4' | 'h5';

/** Problems named one by one; the rest are counted. */
export const PROBLEMS_SHOWN = 50;

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

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

/** A coordinate as the file most likely wrote it: at most 5 decimals (about a metre), no trailing zeros. */
const coordinate = (value: number) => String(Number(value.toFixed(5)));

function position(row: ImportPreview['sample'][number]): string {
  if (row.lat !== null && row.lng !== null) return `${coordinate(row.lat)}, ${coordinate(row.lng)}`;
  if (row.x !== null && row.y !== null) return `x ${Math.round(row.x)}, y ${Math.round(row.y)}`;
  return 'Not placed';
}

/** Where the locations land, floor by floor, and the empty starter floor the file's floors replace. */
function Landing({ preview, heading: Title }: { preview: ImportPreview; heading: PartHeading }) {
  const id = useId();
  return (
    <div className="im-block" role="group" aria-labelledby={`${id}-title`}>
      <Title className="im-block__title" id={`${id}-title`}>
        Where it lands
      </Title>
      <ul className="im-floors">
        {preview.floors.map((floor) => {
          const what = [
            floor.locations > 0 ? count(floor.locations, 'new location', 'new locations') : null,
            floor.updated > 0 ? count(floor.updated, 'location updated', 'locations updated') : null,
          ].filter(Boolean);
          return (
            <li key={floor.id} className="im-floor">
              <span className="im-floor__name">{floor.name}</span>
              {floor.new ? <span className="im-tag">new floor</span> : null}
              <span className="im-floor__what">{what.length > 0 ? what.join(', ') : 'no locations'}</span>
            </li>
          );
        })}
      </ul>
      {preview.removedFloor !== null ? (
        <p className="im-hint">
          This map’s empty floor “{preview.removedFloor}” is replaced by the file’s {preview.floors.filter((f) => f.new).length === 1 ? 'floor' : 'floors'}.
        </p>
      ) : null}
    </div>
  );
}

/** What becomes of a row, in a word. */
function outcome(row: ImportPreview['sample'][number]): { word: string; kind: string } {
  if (row.skipped !== null) return { word: 'Left out', kind: 'skipped' };
  return row.update ? { word: 'Updates', kind: 'update' } : { word: 'New', kind: 'new' };
}

function SampleTable({ preview, heading: Title }: { preview: ImportPreview; heading: PartHeading }) {
  const id = useId();
  const rows = preview.sample;
  const geo = rows.some((row) => row.lat !== null);
  const more = preview.counts.locations + preview.counts.updated + preview.counts.skipped - rows.length;
  // One floor for every row (the plan says so, not the sample): said above, the table stays narrow.
  const oneFloor = preview.floors.filter((floor) => floor.locations + floor.updated > 0).length <= 1;
  const grouped = rows.some((row) => row.groups.length > 0);
  const columns = 4 + (oneFloor ? 0 : 1) + (grouped ? 1 : 0);
  return (
    <div className="im-block">
      <Title className="im-block__title" id={`${id}-title`}>
        First rows
      </Title>
      <div className="im-table-wrap" tabIndex={0} role="group" aria-labelledby={`${id}-title`}>
        <table className="im-table">
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Name</th>
              <th scope="col">Becomes</th>
              <th scope="col">{geo ? 'Lat, lng' : 'Position'}</th>
              {oneFloor ? null : <th scope="col">Floor</th>}
              {grouped ? <th scope="col">Groups</th> : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const { word, kind } = outcome(row);
              return (
                <tr key={`${row.row}-${row.id}`} data-outcome={kind}>
                  <td className="im-table__num">{row.row}</td>
                  {row.skipped !== null ? (
                    // Why, across the row: the reason reads as a sentence, not squeezed into one column.
                    <td colSpan={columns - 1}>
                      {row.title || <span className="im-empty">(no name)</span>}{' '}
                      <span className="im-outcome" data-kind={kind}>
                        {word}
                      </span>
                      <span className="im-table__why">{row.skipped}</span>
                    </td>
                  ) : (
                    <>
                      <td>{row.title || <span className="im-empty">(no name)</span>}</td>
                      <td>
                        <span className="im-outcome" data-kind={kind}>
                          {word}
                        </span>
                      </td>
                      <td className="im-table__num">
                        {position(row)}
                        {row.region ? <span className="im-tag im-tag--quiet">region {row.region}</span> : null}
                      </td>
                      {oneFloor ? null : <td>{row.floor}</td>}
                      {grouped ? <td>{row.groups.join(', ') || <span className="im-empty">–</span>}</td> : null}
                    </>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {more > 0 ? <p className="im-hint">And {count(more, 'more row', 'more rows')}.</p> : null}
    </div>
  );
}

function ProblemList({ preview, heading: Title }: { preview: ImportPreview; heading: PartHeading }) {
  const id = useId();
  const shown = preview.problems.slice(0, PROBLEMS_SHOWN);
  const more = preview.problemCount - shown.length;
  return (
    <div className="im-block im-problems">
      <Title className="im-block__title" id={`${id}-title`}>
        {count(preview.problemCount, 'problem', 'problems')}
      </Title>
      <ul aria-labelledby={`${id}-title`}>
        {shown.map((problem, index) => (
          <li key={index}>
            {problem.row !== null || problem.field !== null ? (
              <span className="im-problem__where">
                {[problem.row !== null ? `Row ${problem.row}` : null, problem.field !== null ? fieldName(problem.field) : null].filter(Boolean).join(', ')}:
              </span>
            ) : null}{' '}
            {problem.message}
          </li>
        ))}
      </ul>
      {more > 0 ? <p className="im-hint">and {count(more, 'more problem', 'more problems')}.</p> : null}
    </div>
  );
}

/** A field's name in words when it is one of ours, else the file's column as it is. */
function fieldName(field: string): string {
  return (IMPORT_FIELDS as readonly string[]).includes(field) ? FIELD_LABELS[field as ImportField] : field;
}
