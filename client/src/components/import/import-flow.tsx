/**
 * Importing files into a map through the server (`POST /api/maps/{id}/import`): pick or drop
 * them, watch them go up (a real progress bar, then a spinner while the server reads them), read
 * the preview, change what the guess got wrong, apply. Used by the editor's Data panel and by
 * /maps/new; the flow itself is lib/import/import-machine.ts.
 *
 * Focus follows the work: to the preview's heading when it arrives, to a refusal when one comes,
 * back to the file picker once the import is done.
 */
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { ImportPreview } from '../../../../events/map-import';
import { currentMapping, importMachine } from '../../lib/import/import-machine';
import { FileDrop } from './file-drop';
import { ImportPreviewView } from './import-preview';
import './import.css';

export interface ImportFlowProps {
  mapId: string;
  /** Recorded: the server's answer, and the main file's name. */
  onApplied: (preview: ImportPreview, fileName: string) => void;
  /** Apply was pressed: the server is about to record it. */
  onApplying?: () => void;
  /** Files to start with (/maps/new hands over the ones picked there). */
  initialFiles?: readonly File[];
  /** Cancel also leaves (/maps/new: on to the map). */
  onCancel?: () => void;
  /** What the map holds now, for the warning of a file that replaces it. */
  current?: { layers: number; locations: number };
  /** The picker's words ("Choose files"). */
  pickLabel?: string;
  /** The preview's heading level: 4 under the editor panel's section, 3 under a page's section. */
  headingLevel?: 3 | 4;
  /** Whether the flow says what it did itself (the editor says it in its toast too). */
  showNotice?: boolean;
}

const HINT = 'A table (CSV or TSV), a Mapplic or Mapfold JSON, GeoJSON, KML or an SVG. With a Mapplic map, add its floor drawings too.';

export function ImportFlow({ mapId, onApplied, onApplying, initialFiles, onCancel, current, pickLabel = 'Choose files', showNotice = true, headingLevel = 4 }: ImportFlowProps) {
  const appliedRef = useRef(onApplied);
  appliedRef.current = onApplied;
  const applyingRef = useRef(onApplying);
  applyingRef.current = onApplying;
  const actor = useActorRef(
    importMachine.provide({
      actions: {
        applying: () => applyingRef.current?.(),
        applied: (_, params) => appliedRef.current(params.preview, params.fileName),
      },
    }),
    { input: { mapId } },
  );
  const state = useSelector(actor, (snapshot) => snapshot.value);
  const context = useSelector(actor, (snapshot) => snapshot.context);
  const status = typeof state === 'string' ? state : 'ready';
  const sending = status === 'sending' || status === 'preparing';
  const applying = status === 'applying';
  // Regions were ticked: a new preview is asked for in a moment.
  const changing = typeof state === 'object' && (state as { ready?: string }).ready === 'changing';

  const picker = useRef<HTMLInputElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);

  const started = useRef(false);
  useEffect(() => {
    if (started.current || !initialFiles || initialFiles.length === 0) return;
    started.current = true;
    actor.send({ type: 'PICK', files: initialFiles });
  }, [actor, initialFiles]);

  // A new preview (not a re-preview): its heading takes the focus, so reading starts there.
  const previewShown = context.preview !== null;
  useEffect(() => {
    if (previewShown) heading.current?.focus();
  }, [previewShown]);
  useEffect(() => {
    if (context.error) errorRef.current?.focus();
  }, [context.error]);
  useEffect(() => {
    if (context.notice) picker.current?.focus();
  }, [context.notice]);

  const fileNames = context.files.map((file) => file.name);
  const percent = Math.round(context.progress * 100);
  const busyLine = (sending || applying) ? (
    <div className="im-progress-block">
      {context.reading || status === 'preparing' ? (
        <p className="im-reading" role="status">
          <span className="im-spinner" aria-hidden="true" />
          {context.geocoding
            ? `Placing addresses: ${context.geocoding.done.toLocaleString('en-US')} of ${context.geocoding.total.toLocaleString('en-US')}…`
            : applying ? `Importing ${fileNames[0]}…` : status === 'preparing' ? `Looking into ${fileNames[0]}…` : `Reading ${fileNames[0]}…`}
        </p>
      ) : (
        <>
          <p className="im-progress__line">
            <span className="im-file">Sending {fileNames.length > 1 ? `${fileNames[0]} and ${fileNames.length - 1} more` : fileNames[0]}</span>
            <span className="im-progress__pc">{percent}%</span>
            {!applying && context.preview === null ? (
              <button type="button" className="im-link" onClick={() => actor.send({ type: 'CANCEL' })}>
                Cancel
              </button>
            ) : null}
          </p>
          <div className="im-progress" role="progressbar" aria-label={`Sending ${fileNames[0]}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
            <span style={{ width: `${percent}%` }} />
          </div>
        </>
      )}
    </div>
  ) : null;

  const preview = context.preview;
  const nothing = preview !== null && !preview.replaces && preview.counts.locations + preview.counts.updated + preview.counts.layers + preview.counts.groups === 0;
  const locations = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'location' : 'locations'}`;
  const applyLabel = preview?.replaces
    ? 'Replace the map'
    : preview && preview.counts.locations > 0
      ? `Import ${locations(preview.counts.locations)}`
      : preview && preview.counts.updated > 0
        ? `Update ${locations(preview.counts.updated)}`
        : 'Import';

  return (
    <div className="im">
      {preview === null ? (
        <FileDrop ref={picker} label={pickLabel} hint={HINT} disabled={sending} onFiles={(files) => actor.send({ type: 'PICK', files })} />
      ) : null}

      {context.error ? (
        <div ref={errorRef} tabIndex={-1} className="im-error" role="alert">
          <p>
            {fileNames[0] ? <strong className="im-file">{fileNames[0]}: </strong> : null}
            {context.error}
          </p>
          {preview === null ? <p className="im-error__next">Nothing was changed. Choose another file, or fix this one and try again.</p> : null}
        </div>
      ) : null}

      {preview === null ? busyLine : null}

      {preview ? (
        <ImportPreviewView
          preview={preview}
          fileNames={fileNames}
          mapping={currentMapping(context)}
          options={context.options}
          stale={sending || changing}
          {...(current ? { current } : {})}
          headingRef={heading}
          headingLevel={headingLevel}
          notes={context.notes}
          onColumn={(field, column) => actor.send({ type: 'SET_COLUMN', field, column })}
          onRegion={(id, on) => actor.send({ type: 'TOGGLE_REGION', id, on })}
          onAllRegions={(on) => actor.send({ type: 'SET_ALL_REGIONS', on })}
          actions={
            <>
              {busyLine}
              <div className="im-actions__buttons">
                <button
                  type="button"
                  className="im-button im-button--primary"
                  disabled={applying || sending || nothing}
                  aria-disabled={applying || undefined}
                  onClick={() => actor.send({ type: 'APPLY' })}
                >
                  {applying ? <span className="im-spinner im-spinner--button" aria-hidden="true" /> : null}
                  {applying ? 'Importing…' : applyLabel}
                </button>
                <button
                  type="button"
                  className="im-button"
                  disabled={applying}
                  onClick={() => {
                    actor.send({ type: 'CANCEL' });
                    onCancel?.();
                  }}
                >
                  Cancel
                </button>
              </div>
              {nothing ? <p className="im-hint">Nothing in this file can be imported: see the problems above.</p> : null}
            </>
          }
        />
      ) : null}

      {showNotice ? (
        <p className="im-notice" role="status" aria-live="polite">
          {context.notice}
        </p>
      ) : null}
    </div>
  );
}
