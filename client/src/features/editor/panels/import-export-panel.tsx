/**
 * The map's data in and out: the whole document as JSON and the locations as CSV, downloaded;
 * a JSON file imported in place of the map (previewed first, one undo step; floor drawings on
 * other sites copied to this one by the server first, foreign-drawings.ts), and locations
 * imported from a CSV file with a preview that says, row by row, what is added, what updated,
 * and why a row is refused.
 */
import Papa from 'papaparse';
import { useId, useMemo, useRef, useState, type DragEvent } from 'react';
import { exportLocationsCsv, importLocationsCsv, type CsvImport } from '../../../../../events/locations-csv';
import { MapDocumentInput, type MapDocument } from '../../../../../events/map-document';
import { storeFileFromUrl } from '../api/store-file-from-url';
import { copyForeignDrawings, foreignDrawingUrls, type CopyDrawing } from './foreign-drawings';
import type { EditorPanelProps } from './panel-props';
import './panels.css';
import './import-export.css';

export interface ImportExportPanelProps extends EditorPanelProps {
  mapId: string;
  title: string;
  /** The owner downloads the saved map from the server; a visitor exploring gets the tab's copy. */
  canDownload: boolean;
  /** How a floor drawing on another site is copied here (the server's `POST /api/files/from-url`). */
  copyDrawing?: CopyDrawing;
}

/** Rows shown in a preview; the rest are counted. */
const PREVIEW_ROWS = 100;
/** Problems of a JSON file named one by one; the rest are counted. */
const JSON_PROBLEMS = 10;
/** A file larger than this is not read (a map's JSON is far smaller). */
const MAX_FILE_BYTES = 20 * 1024 * 1024;
/** Rows events/locations-csv.ts reads from one file (its MAX_ROWS); its refusal one line past them is about the file. */
const CSV_READ_LIMIT = 5_000;

type JsonPreview =
  | { status: 'copying'; name: string; count: number }
  | { status: 'ready'; name: string; title: string | null; document: MapDocument; notes: string[] }
  | { status: 'invalid'; name: string; problems: string[]; more: number };
type CsvFile = { name: string; text: string };

const fileName = (title: string) => title.replace(/[^\p{L}\p{N} _-]+/gu, '').trim().replace(/\s+/g, '-').slice(0, 80) || 'map';
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

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

export type MapJson =
  | { ok: true; document: MapDocument; title: string | null; notes?: string[] }
  | { ok: false; problems: string[]; more: number };

type JsonFile = { ok: true; candidate: unknown; title: string | null; exported: boolean } | Extract<MapJson, { ok: false }>;

/** A JSON file's document candidate: the export's `{title, document}` or a bare document. */
function readJsonFile(text: string): JsonFile {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { ok: false, problems: ['The file is not JSON.'], more: 0 };
  }
  const isObject = (candidate: unknown): candidate is Record<string, unknown> => typeof candidate === 'object' && candidate !== null && !Array.isArray(candidate);
  const wrapper = isObject(value) && 'document' in value ? value : null;
  const candidate = wrapper ? wrapper.document : value;
  const title = wrapper && typeof wrapper.title === 'string' ? wrapper.title : null;
  // Any object would pass as an (empty) first-version document: ask for something of a map.
  if (isObject(candidate) && !('version' in candidate) && !('layers' in candidate) && !('locations' in candidate)) {
    return { ok: false, problems: ['The file is JSON but not a map: it has no version, layers or locations.'], more: 0 };
  }
  return { ok: true, candidate, title, exported: wrapper !== null };
}

/**
 * The candidate as a document anyone may import (`MapDocumentInput`: floors' drawings the
 * product's own files). Problems are `path: message`, the first {@link JSON_PROBLEMS} of them,
 * with how many more there are.
 */
function checkMapJson({ candidate, title, exported }: Extract<JsonFile, { ok: true }>): MapJson {
  const parsed = MapDocumentInput.safeParse(candidate);
  if (parsed.success) return { ok: true, document: parsed.data, title };
  const issues = parsed.error.issues;
  const prefix = exported ? 'document.' : '';
  return {
    ok: false,
    problems: issues.slice(0, JSON_PROBLEMS).map((issue) => (issue.path.length > 0 ? `${prefix}${issue.path.join('.')}: ${issue.message}` : `${exported ? 'document' : 'the file'}: ${issue.message}`)),
    more: Math.max(0, issues.length - JSON_PROBLEMS),
  };
}

/** A JSON file as a map document, as it is (a drawing on another site is a problem). */
export function readMapJson(text: string): MapJson {
  const file = readJsonFile(text);
  return file.ok ? checkMapJson(file) : file;
}

/**
 * A JSON file as a map document, its floors' drawings on other sites copied to this site
 * first (or left off, with a note that says why). `onCopying` hears how many there are before
 * the copying starts.
 */
export async function importMapJson(text: string, copy: CopyDrawing, onCopying?: (count: number) => void): Promise<MapJson> {
  const file = readJsonFile(text);
  if (!file.ok) return file;
  const count = foreignDrawingUrls(file.candidate).length;
  if (count === 0) return checkMapJson(file);
  onCopying?.(count);
  const { candidate, notes } = await copyForeignDrawings(file.candidate, copy);
  const checked = checkMapJson({ ...file, candidate });
  return checked.ok ? { ...checked, notes } : checked;
}

export interface CsvPreviewRow {
  /** The row's line in the file, as the parser counts (the header is line 1). */
  line: number;
  title: string;
  floor: string;
  status: 'new' | 'updated' | 'refused';
  reason?: string;
}

export interface CsvPreview {
  /** Every row read, in the file's order. */
  rows: CsvPreviewRow[];
  /** What is wrong with the file as a whole (no title column, too many rows). */
  fileProblems: string[];
  added: number;
  updated: number;
  refused: number;
}

/**
 * The parser's result row by row, in the file's order: its edits are the accepted rows in
 * order and its refusals name their lines, so every line is one or the other. The cells of a
 * refused row (which the parser does not return) come from the raw rows.
 */
export function csvPreview(document: MapDocument, text: string, result: CsvImport = importLocationsCsv(document, text)): CsvPreview {
  const fileProblems = result.rejected.filter((row) => row.line === 1 || row.line > CSV_READ_LIMIT + 1).map((row) => row.reason);
  const refusals = result.rejected.filter((row) => row.line > 1 && row.line <= CSV_READ_LIMIT + 1);
  const raw = refusals.length > 0 ? rawRows(text) : [];
  const layerName = new Map(document.layers.map((layer) => [layer.id, layer.name]));
  const reasonAt = new Map(refusals.map((row) => [row.line, row.reason]));
  const lastRefused = refusals.reduce((last, row) => Math.max(last, row.line), 0);
  const rows: CsvPreviewRow[] = [];
  let edit = 0;
  for (let line = 2; edit < result.edits.length || line <= lastRefused; line++) {
    const reason = reasonAt.get(line);
    if (reason !== undefined) {
      const cells = raw[line - 2] ?? {};
      rows.push({ line, title: cells.title ?? '', floor: cells.layer ?? '', status: 'refused', reason });
      continue;
    }
    const next = result.edits[edit++];
    if (next?.type === 'LocationAdded') {
      rows.push({ line, title: next.location.title, floor: layerName.get(next.location.layer) ?? next.location.layer, status: 'new' });
    } else if (next?.type === 'LocationUpdated') {
      const layer = next.changes.layer ?? document.locations.find((location) => location.id === next.id)?.layer ?? '';
      rows.push({ line, title: next.changes.title ?? next.id, floor: layerName.get(layer) ?? layer, status: 'updated' });
    }
  }
  return { rows, fileProblems, added: result.added.length, updated: result.updated.length, refused: refusals.length };
}

/** The file's rows as the parser reads them (same header handling), for the cells of refused rows. */
function rawRows(text: string): Array<Record<string, string | undefined>> {
  return Papa.parse<Record<string, string | undefined>>(text.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (header) => header.trim().toLowerCase().replace(/\s+/g, ''),
  }).data;
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
      className="ep-drop ep-io-drop"
      data-over={over ? 'true' : undefined}
      onDragOver={(event) => {
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setOver(true);
      }}
      onDragLeave={(event) => {
        // Moving over the zone's own children fires dragleave too.
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
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

const STATUS_LABEL = { new: 'New', updated: 'Updated', refused: 'Refused' } as const;

const copyThroughServer: CopyDrawing = (url) => storeFileFromUrl(url);

export function ImportExportPanel({ document, onEdit, mapId, title, canDownload, copyDrawing = copyThroughServer }: ImportExportPanelProps) {
  const [json, setJson] = useState<JsonPreview | null>(null);
  const [csvFile, setCsvFile] = useState<CsvFile | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  // The file picked last: copying an earlier one's drawings may end after it was replaced.
  const jsonPick = useRef(0);
  const base = `/api/maps/${encodeURIComponent(mapId)}`;

  // Read against the document as it is now: a collaborator's edit while the preview is open
  // (a location added, a group renamed) shows in it before anything is imported.
  const csv = useMemo(() => {
    if (!csvFile) return null;
    const result = importLocationsCsv(document, csvFile.text);
    return { name: csvFile.name, result, preview: csvPreview(document, csvFile.text, result) };
  }, [document, csvFile]);

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
    const pick = ++jsonPick.current;
    const text = await read(file);
    if (text === null || pick !== jsonPick.current) return;
    const result = await importMapJson(text, copyDrawing, (count) => {
      if (pick === jsonPick.current) setJson({ status: 'copying', name: file.name, count });
    });
    if (pick !== jsonPick.current) return;
    setJson(
      result.ok
        ? { status: 'ready', name: file.name, title: result.title, document: result.document, notes: result.notes ?? [] }
        : { status: 'invalid', name: file.name, problems: result.problems, more: result.more },
    );
  };

  const pickCsv = async (file: File) => {
    const text = await read(file);
    if (text === null) return;
    setCsvFile({ name: file.name, text });
  };

  const accepted = csv ? csv.result.edits.length : 0;
  const shownRows = csv ? csv.preview.rows.slice(0, PREVIEW_ROWS) : [];
  const refusedRows = csv ? csv.preview.rows.filter((row) => row.status === 'refused') : [];

  return (
    <div className="ep-panel ep-io">
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
        <p className="ep-hint">
          The JSON holds everything: floors, locations, groups and settings. The CSV opens in any spreadsheet.
          {canDownload ? null : ' Both are made from the map as it is in this tab.'}
        </p>
      </section>

      <section className="ep-section" aria-labelledby="ep-io-json">
        <h3 id="ep-io-json" className="ep-section__title">
          Import a map (JSON)
        </h3>
        <FilePicker label="Choose a JSON file" accept=".json,application/json" onFile={(file) => void pickJson(file)} />
        {json?.status === 'copying' ? (
          <p className="ep-result" role="status">
            Copying {count(json.count, 'floor drawing', 'floor drawings')} of <strong>{json.name}</strong> from {json.count === 1 ? 'its site' : 'their sites'} to this one…
          </p>
        ) : null}
        {json?.status === 'invalid' ? (
          <div className="ep-result ep-result--error ep-io-problems" role="alert">
            <p>
              <strong>{json.name}</strong> is not a map this editor can read:
            </p>
            <ul>
              {json.problems.map((problem, index) => (
                <li key={index}>{problem}</li>
              ))}
            </ul>
            {json.more > 0 ? <p>and {count(json.more, 'more problem', 'more problems')}.</p> : null}
            <p>Nothing was changed.</p>
          </div>
        ) : null}
        {json?.status === 'ready' ? (
          <div className="ep-result" role="region" aria-label="JSON import preview">
            <p>
              <strong>{json.name}</strong> holds {count(json.document.layers.length, 'floor', 'floors')}, {count(json.document.locations.length, 'location', 'locations')} and{' '}
              {count(json.document.groups.length, 'group', 'groups')}.
            </p>
            {json.title !== null ? <p className="ep-hint">Exported from “{json.title}”; this map keeps its own title.</p> : null}
            {json.notes.length > 0 ? (
              <ul className="ep-io-notes" aria-label="Floor drawings from other sites">
                {json.notes.map((note) => (
                  <li key={note}>{note}</li>
                ))}
              </ul>
            ) : null}
            <p className="ep-io-warning">
              <strong>It replaces everything on this map</strong> ({count(document.layers.length, 'floor', 'floors')}, {count(document.locations.length, 'location', 'locations')}). You can undo it.
            </p>
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
          Columns as in the export: title is required; a row whose id matches a location updates it; floors and groups by name (they must exist on the map).
        </p>
        <FilePicker label="Choose a CSV file" accept=".csv,text/csv" onFile={(file) => void pickCsv(file)} />
        {csv ? (
          <div className="ep-result" role="region" aria-label="CSV import preview">
            {csv.preview.fileProblems.length > 0 ? (
              <div className="ep-result ep-result--error ep-io-problems" role="alert">
                {csv.preview.fileProblems.map((problem) => (
                  <p key={problem}>{problem}</p>
                ))}
              </div>
            ) : null}
            <p>
              <strong>{csv.name}</strong>: {csv.preview.added} new, {csv.preview.updated} updated, {csv.preview.refused} refused.
            </p>
            {shownRows.length > 0 ? (
              <div className="ep-io-table-wrap" tabIndex={0} role="group" aria-label="Rows of the file">
                <table className="ep-table ep-io-table">
                  <caption className="visually-hidden">What each row of {csv.name} becomes</caption>
                  <thead>
                    <tr>
                      <th scope="col">Line</th>
                      <th scope="col">Title</th>
                      <th scope="col">Floor</th>
                      <th scope="col">Status</th>
                    </tr>
                  </thead>
                  <tbody>
                    {shownRows.map((row) => (
                      <tr key={row.line} data-status={row.status}>
                        <td className="ep-io-line">{row.line}</td>
                        <td>{row.title || <span className="ep-io-empty">(no title)</span>}</td>
                        <td>{row.floor || <span className="ep-io-empty">–</span>}</td>
                        <td>
                          <span className={`ep-io-status ep-io-status--${row.status}`}>{STATUS_LABEL[row.status]}</span>
                          {row.reason ? <span className="ep-io-reason">{row.reason}</span> : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : null}
            {csv.preview.rows.length > PREVIEW_ROWS ? (
              <p className="ep-hint">The first {PREVIEW_ROWS} rows are shown; {count(csv.preview.rows.length - PREVIEW_ROWS, 'more row is', 'more rows are')} in the file.</p>
            ) : null}
            {refusedRows.length > 0 ? (
              <details className="ep-io-refusals">
                <summary>{refusedRows.length === 1 ? 'The refused row' : `All ${refusedRows.length} refused rows`}</summary>
                <ul>
                  {refusedRows.slice(0, PREVIEW_ROWS * 5).map((row) => (
                    <li key={row.line}>
                      Line {row.line}: {row.reason}
                    </li>
                  ))}
                </ul>
                {refusedRows.length > PREVIEW_ROWS * 5 ? <p className="ep-hint">and {refusedRows.length - PREVIEW_ROWS * 5} more.</p> : null}
              </details>
            ) : null}
            {accepted > 0 && csv.preview.refused > 0 ? <p className="ep-hint">Refused rows are left out; fix them in the file and import it again to add them.</p> : null}
            <div className="ep-row__actions">
              <button
                type="button"
                className="ep-button ep-button--primary"
                disabled={accepted === 0}
                onClick={() => {
                  onEdit(csv.result.edits);
                  setDone(`Imported ${count(accepted, 'location', 'locations')} from ${csv.name}.`);
                  setCsvFile(null);
                }}
              >
                Import {count(accepted, 'location', 'locations')}
              </button>
              <button type="button" className="ep-button" onClick={() => setCsvFile(null)}>
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
