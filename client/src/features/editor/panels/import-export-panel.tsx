/**
 * The map's data in and out: the whole document as JSON and the locations as CSV, downloaded;
 * a JSON file imported in place of the map (previewed first, one undo step), and locations
 * imported from a CSV file with a preview that says, row by row, what is added, what updated,
 * and why a row is refused.
 */
import { useId, useState, type DragEvent } from 'react';
import { exportLocationsCsv, importLocationsCsv, type CsvImport } from '../../../../../events/locations-csv';
import { MapDocument } from '../../../../../events/map-document';
import type { EditorPanelProps } from './panel-props';
import './panels.css';

export interface ImportExportPanelProps extends EditorPanelProps {
  mapId: string;
  title: string;
  /** The owner downloads the saved map from the server; a visitor exploring gets the tab's copy. */
  canDownload: boolean;
}

/** Rows shown in a preview; the rest are counted. */
const PREVIEW_ROWS = 100;
/** A file larger than this is not read (a map's JSON is far smaller). */
const MAX_FILE_BYTES = 20 * 1024 * 1024;

type JsonPreview = { status: 'ready'; name: string; document: MapDocument } | { status: 'invalid'; name: string; problems: string[] };
type CsvPreview = { name: string; result: CsvImport };

const fileName = (title: string) => title.replace(/[^\p{L}\p{N} _-]+/gu, '').trim().replace(/\s+/g, '-').slice(0, 80) || 'map';

function download(name: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = window.document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/** A file's text (FileReader: every browser has it, and so does the test DOM). */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsText(file);
  });
}

/** A JSON file as a map document: the export's `{title, document}` or a bare document. */
export function readMapJson(text: string): { ok: true; document: MapDocument } | { ok: false; problems: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problems: ['The file is not JSON.'] };
  }
  const candidate = typeof value === 'object' && value !== null && 'document' in value ? (value as { document: unknown }).document : value;
  const parsed = MapDocument.safeParse(candidate);
  if (parsed.success) return { ok: true, document: parsed.data };
  return { ok: false, problems: parsed.error.issues.slice(0, 10).map((issue) => `${issue.path.join('.') || 'document'}: ${issue.message}`) };
}

function FilePicker({ label, accept, onFile }: { label: string; accept: string; onFile: (file: File) => void }) {
  const id = useId();
  const [over, setOver] = useState(false);
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file) onFile(file);
  };
  return (
    <div
      className="ep-drop"
      data-over={over ? 'true' : undefined}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <label htmlFor={id} className="ep-button">
        {label}
      </label>
      <input
        id={id}
        className="visually-hidden"
        type="file"
        accept={accept}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
      <span className="ep-hint">or drop the file here</span>
    </div>
  );
}

export function ImportExportPanel({ document, onEdit, mapId, title, canDownload }: ImportExportPanelProps) {
  const [json, setJson] = useState<JsonPreview | null>(null);
  const [csv, setCsv] = useState<CsvPreview | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const base = `/api/maps/${encodeURIComponent(mapId)}`;

  const read = async (file: File): Promise<string | null> => {
    setDone(null);
    setReadError(null);
    if (file.size > MAX_FILE_BYTES) {
      setReadError(`${file.name} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB.`);
      return null;
    }
    try {
      return await readText(file);
    } catch {
      setReadError(`${file.name} could not be read.`);
      return null;
    }
  };

  const pickJson = async (file: File) => {
    const text = await read(file);
    if (text === null) return;
    const result = readMapJson(text);
    setJson(result.ok ? { status: 'ready', name: file.name, document: result.document } : { status: 'invalid', name: file.name, problems: result.problems });
  };

  const pickCsv = async (file: File) => {
    const text = await read(file);
    if (text === null) return;
    setCsv({ name: file.name, result: importLocationsCsv(document, text) });
  };

  const layerName = new Map(document.layers.map((layer) => [layer.id, layer.name]));
  const csvRows = csv ? [...csv.result.added.map((location) => ({ location, status: 'New' })), ...csv.result.updated.map((location) => ({ location, status: 'Updated' }))] : [];
  const accepted = csv ? csv.result.added.length + csv.result.updated.length : 0;

  return (
    <div className="ep-panel">
      <section className="ep-section" aria-labelledby="ep-io-export">
        <h3 id="ep-io-export" className="ep-section__title">
          Export
        </h3>
        <div className="ep-row__actions ep-row__actions--stack">
          {canDownload ? (
            <>
              <a className="ep-button" href={`${base}/export.json`} download>
                Download map (JSON)
              </a>
              <a className="ep-button" href={`${base}/locations.csv`} download>
                Download locations (CSV)
              </a>
            </>
          ) : (
            <>
              <button type="button" className="ep-button" onClick={() => download(`${fileName(title)}.json`, 'application/json', JSON.stringify({ title, document }, null, 2))}>
                Download map (JSON)
              </button>
              <button type="button" className="ep-button" onClick={() => download(`${fileName(title)}-locations.csv`, 'text/csv', `\uFEFF${exportLocationsCsv(document)}`)}>
                Download locations (CSV)
              </button>
            </>
          )}
        </div>
        <p className="ep-hint">The JSON holds everything: floors, locations, groups and settings. The CSV opens in any spreadsheet.</p>
      </section>

      <section className="ep-section" aria-labelledby="ep-io-json">
        <h3 id="ep-io-json" className="ep-section__title">
          Import a map (JSON)
        </h3>
        <FilePicker label="Choose a JSON file" accept=".json,application/json" onFile={(file) => void pickJson(file)} />
        {json?.status === 'invalid' ? (
          <div className="ep-result ep-result--error" role="alert">
            <p>
              <strong>{json.name}</strong> is not a map this editor can read:
            </p>
            <ul>
              {json.problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          </div>
        ) : null}
        {json?.status === 'ready' ? (
          <div className="ep-result" role="region" aria-label="JSON import preview">
            <p>
              <strong>{json.name}</strong> holds {json.document.layers.length} {json.document.layers.length === 1 ? 'floor' : 'floors'}, {json.document.locations.length}{' '}
              {json.document.locations.length === 1 ? 'location' : 'locations'} and {json.document.groups.length} {json.document.groups.length === 1 ? 'group' : 'groups'}.
            </p>
            <p className="ep-warning">It replaces everything on this map. You can undo it.</p>
            <div className="ep-row__actions">
              <button
                type="button"
                className="ep-button ep-button--primary"
                onClick={() => {
                  onEdit([{ type: 'DocumentImported', document: json.document }]);
                  setDone(`Imported ${json.name}.`);
                  setJson(null);
                }}
              >
                Replace the map
              </button>
              <button type="button" className="ep-button" onClick={() => setJson(null)}>
                Cancel
              </button>
            </div>
          </div>
        ) : null}
      </section>

      <section className="ep-section" aria-labelledby="ep-io-csv">
        <h3 id="ep-io-csv" className="ep-section__title">
          Import locations (CSV)
        </h3>
        <p className="ep-hint">
          Columns as in the export: title is required; a row whose id matches a location updates it; floors and groups by name.
        </p>
        <FilePicker label="Choose a CSV file" accept=".csv,text/csv" onFile={(file) => void pickCsv(file)} />
        {csv ? (
          <div className="ep-result" role="region" aria-label="CSV import preview">
            <p>
              <strong>{csv.name}</strong>: {csv.result.added.length} new, {csv.result.updated.length} updated, {csv.result.rejected.length} refused.
            </p>
            {csvRows.length > 0 ? (
              <table className="ep-table">
                <caption className="visually-hidden">Rows to import</caption>
                <thead>
                  <tr>
                    <th scope="col">Title</th>
                    <th scope="col">Floor</th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {csvRows.slice(0, PREVIEW_ROWS).map(({ location, status }) => (
                    <tr key={`${status}-${location.id}`}>
                      <td>{location.title}</td>
                      <td>{layerName.get(location.layer) ?? location.layer}</td>
                      <td>{status}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            {csvRows.length > PREVIEW_ROWS ? <p className="ep-hint">and {csvRows.length - PREVIEW_ROWS} more.</p> : null}
            {csv.result.rejected.length > 0 ? (
              <div className="ep-result ep-result--error">
                <p>Refused rows:</p>
                <ul>
                  {csv.result.rejected.slice(0, PREVIEW_ROWS).map((row) => (
                    <li key={row.line}>
                      Line {row.line}: {row.reason}
                    </li>
                  ))}
                </ul>
                {csv.result.rejected.length > PREVIEW_ROWS ? <p className="ep-hint">and {csv.result.rejected.length - PREVIEW_ROWS} more.</p> : null}
              </div>
            ) : null}
            <div className="ep-row__actions">
              <button
                type="button"
                className="ep-button ep-button--primary"
                disabled={accepted === 0}
                onClick={() => {
                  onEdit(csv.result.edits);
                  setDone(`Imported ${accepted} ${accepted === 1 ? 'location' : 'locations'} from ${csv.name}.`);
                  setCsv(null);
                }}
              >
                Import {accepted} {accepted === 1 ? 'location' : 'locations'}
              </button>
              <button type="button" className="ep-button" onClick={() => setCsv(null)}>
                Cancel
              </button>
            </div>
          </div>
        ) : null}
      </section>
      {readError ? (
        <p className="ep-error" role="alert">
          {readError}
        </p>
      ) : null}
      <p className="ep-live" role="status" aria-live="polite">
        {done}
      </p>
    </div>
  );
}
