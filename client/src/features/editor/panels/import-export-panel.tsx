/**
 * The map's data in and out. Out: the whole document as JSON, the locations as CSV (and, for a
 * map with a calibrated floor, as GeoJSON: events/locations-geojson.ts), downloaded. In: any file the server can read (a
 * table, a Mapplic or Mapfold JSON, GeoJSON, KML, an SVG), sent to `POST /api/maps/{id}/import`,
 * previewed there and applied there; the editor never parses a file itself. What the server
 * records arrives over the live hub like any edit, and the editor makes it one undo step.
 * IMDF (Apple Maps' indoor format) is made by the server from the floors' drawings; the panel
 * shows what the map still lacks for it (events/imdf-readiness.ts).
 */
import type { ImportPreview } from '../../../../../events/map-import';
import { exportLocationsCsv } from '../../../../../events/locations-csv';
import { exportGeoJson } from '../../../../../events/locations-geojson';
import { imdfReadiness } from '../../../../../events/imdf-readiness';
import { ImportFlow } from '../../../components/import/import-flow';
import { DataSourceSection } from './data-source-section';
import type { EditorPanelProps } from './panel-props';
import { PictureExport, type PictureExportProps } from './picture-export';
import './panels.css';

export interface ImportExportPanelProps extends EditorPanelProps {
  mapId: string;
  title: string;
  /** The owner downloads the saved map from the server; a visitor exploring gets the tab's copy. */
  canDownload: boolean;
  /** Whether files can be imported: the server imports into a map one may change, not a map explored in the tab. */
  canImport?: boolean;
  /** An import is about to be recorded (the editor notes where its events will start). */
  onImportStart?: () => void;
  /** The server recorded an import (the editor makes it an undo step and says so). */
  onImported?: (preview: ImportPreview, fileName: string) => void;
  /** The server recorded other changes of this tab's (a data source's values for overridden fields) up to `revision`: an undo step, said in `notice`. */
  onServerStep?: (revision: string, notice: string) => void;
  /** The canvas's view and floor, for a picture of the map (none: no picture is offered). */
  picture?: Pick<PictureExportProps, 'camera' | 'layerId' | 'mapView' | 'onNotice'>;
}

const fileName = (title: string) => title.replace(/[^\p{L}\p{N} _-]+/gu, '').trim().replace(/\s+/g, '-').slice(0, 80) || 'map';

function download(name: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = window.document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

export function ImportExportPanel({ document, mapId, title, canDownload, canImport = canDownload, onImportStart, onImported, onServerStep, picture }: ImportExportPanelProps) {
  const base = `/api/maps/${encodeURIComponent(mapId)}`;
  // Only a calibrated floor's locations have a place on the globe.
  const geographic = document.layers.some((layer) => layer.geo);
  return (
    <div className="ep-panel ep-io">
      <section className="ep-section" aria-labelledby="ep-io-import">
        <h3 id="ep-io-import" className="ep-section__title">
          Import
        </h3>
        {canImport ? (
          <ImportFlow
            mapId={mapId}
            current={{ layers: document.layers.length, locations: document.locations.length }}
            {...(onImportStart ? { onApplying: onImportStart } : {})}
            onApplied={(preview, name) => onImported?.(preview, name)}
            showNotice={!onImported}
          />
        ) : (
          <p className="ep-hint">Files are imported into your own maps. Make a copy of this map (or sign up) to import into it.</p>
        )}
      </section>

      {canImport ? <DataSourceSection mapId={mapId} document={document} {...(onImportStart ? { onImportStart } : {})} {...(onImported ? { onImported } : {})} {...(onServerStep ? { onServerStep } : {})} /> : null}

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
              {geographic ? (
                <a className="ep-button" href={`${base}/export.geojson`} download>
                  Download locations (GeoJSON)
                </a>
              ) : null}
            </>
          ) : (
            <>
              <button type="button" className="ep-button" onClick={() => download(`${fileName(title)}.json`, 'application/json', JSON.stringify({ title, document }, null, 2))}>
                Download map (JSON)
              </button>
              <button type="button" className="ep-button" onClick={() => download(`${fileName(title)}-locations.csv`, 'text/csv', `\uFEFF${exportLocationsCsv(document)}`)}>
                Download locations (CSV)
              </button>
              {geographic ? (
                <button type="button" className="ep-button" onClick={() => download(`${fileName(title)}-locations.geojson`, 'application/geo+json', JSON.stringify(exportGeoJson(document)))}>
                  Download locations (GeoJSON)
                </button>
              ) : null}
            </>
          )}
        </div>
        <p className="ep-hint">
          The JSON holds everything: floors, locations, groups and settings. The CSV opens in any spreadsheet and imports back into a map.
          {geographic ? ' The GeoJSON places the locations of calibrated floors at their latitude and longitude, for GIS and web maps.' : null}
          {canDownload ? null : ' Both are made from the map as it is in this tab.'}
        </p>
      </section>
      <ImdfExport document={document} href={canDownload ? `${base}/export.imdf.zip` : null} />
      {picture ? <PictureExport document={document} title={title} {...picture} /> : null}
    </div>
  );
}

/** IMDF for Apple Maps: a checklist of what the map lacks, and the download once nothing required is missing. */
function ImdfExport({ document, href }: { document: ImportExportPanelProps['document']; href: string | null }) {
  const checks = imdfReadiness(document);
  const ready = checks.every((check) => check.ok || !check.required);
  return (
    <section className="ep-section" aria-labelledby="ep-io-imdf">
      <h3 id="ep-io-imdf" className="ep-section__title">
        IMDF (Apple Maps)
      </h3>
      <ul className="ep-checklist" aria-label="What IMDF needs">
        {checks.map((check) => (
          <li key={check.key} className={`ep-checklist__item ep-checklist__item--${check.ok ? 'ok' : check.required ? 'missing' : 'partial'}`}>
            <span className="ep-checklist__mark" aria-hidden="true">
              {check.ok ? '✓' : check.required ? '✕' : '!'}
            </span>
            <span>
              <span className="ep-checklist__label">
                {check.label}
                <span className="visually-hidden">{check.ok ? ': done' : check.required ? ': missing' : ': partly'}</span>
              </span>
              {check.missing ? <small className="ep-checklist__missing">{check.missing}</small> : null}
            </span>
          </li>
        ))}
      </ul>
      <div className="ep-row__actions ep-row__actions--stack">
        {href && ready ? (
          <a className="ep-button" href={href} download>
            Download IMDF (Apple Maps)
          </a>
        ) : (
          <button type="button" className="ep-button" disabled>
            Download IMDF (Apple Maps)
          </button>
        )}
      </div>
      <p className="ep-hint">
        {href
          ? 'A zip of the venue, its floors, a unit and a door per shop and the shops’ names, in the Indoor Mapping Data Format Apple Maps takes.'
          : 'IMDF is made from the saved map: make a copy of this map (or sign up) to export it.'}
      </p>
    </section>
  );
}
