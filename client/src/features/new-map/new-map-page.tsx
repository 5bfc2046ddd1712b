/**
 * /maps/new: a title and a starting point, blank, an uploaded plan or image, a file of places to
 * import, a street map (issue 29) or a built-in map (issue 4). The file is uploaded as soon as it is chosen, so Create is
 * quick; a built-in map is made into a document when Create is pressed. Then `createMap {title,
 * mapData}` and on to the new map. A file to import goes to the server once the (blank) map
 * exists: its preview shows here, the same as in the editor's Data panel, and once it is
 * applied the editor opens.
 */
import { useEffect, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ImportFlow } from '../../components/import/import-flow';
import { FileDrop } from '../../components/import/file-drop';
import { orderImportFiles } from '../../lib/import/import-api';
import type { MapDocument } from '../../../../events/map-document';
import { MAP_TITLE_MAX, MapTitle } from '../../../../events/map-title';
import { Alert } from '../../components/ui/alert';
import { Button, ButtonLink } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { toApiError } from '../../lib/api';
import { useSession } from '../../lib/session';
import { DEFAULT_MAX_BYTES, getUploadLimits } from '../../lib/upload/upload-api';
import { useUpload } from '../../lib/upload/use-upload';
import { createMapWith, instantiateTemplate, listTemplates, type TemplateSummary } from './api/new-map-api';
import { StartingPointPicker } from './components/starting-point-picker';
import { droppedFile, UploadPanel } from './components/upload-panel';
import { StartingPointNote } from './components/starting-point-note';
import { documentForStreetMap, documentForUpload, nameFromFile, STARTING_POINTS, streetMapArea, visitorTimeZone, type StartingPointId } from './starting-points';
import './new-map.css';

type Phase = 'idle' | 'uploading' | 'preparing' | 'creating';

export interface NewMapScreenProps {
  /** Where a map opens once it is made. */
  mapHref(id: string): string;
  /** Where Back and Cancel go (the maps list). */
  backHref: string;
}

export function NewMapScreen({ mapHref, backHref }: NewMapScreenProps) {
  const navigate = useNavigate();
  const { mode } = useSession();
  const [title, setTitle] = useState('');
  const titleEdited = useRef(false);
  const titleField = useRef<HTMLDivElement>(null);
  const [titleError, setTitleError] = useState<string | null>(null);
  const [start, setStart] = useState<StartingPointId>('blank');
  const [templates, setTemplates] = useState<Partial<Record<string, TemplateSummary>>>({});
  const [maxBytes, setMaxBytes] = useState(DEFAULT_MAX_BYTES);
  const [phase, setPhase] = useState<Phase>('idle');
  const [error, setError] = useState<string | null>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const upload = useUpload({ maxBytes, useBearerToken: mode === 'clerk' });
  const busy = phase !== 'idle';
  /** The files to import (the main one first), and the map made for them once Create was pressed. */
  const [importFiles, setImportFiles] = useState<File[]>([]);
  const [importInto, setImportInto] = useState<{ id: string; title: string } | null>(null);
  /** Where a street map opens: the visitor's part of the world. */
  const [streetArea] = useState(() => streetMapArea(visitorTimeZone()));

  // What the cards say (region counts, previews) and the upload limit: nice to have, not needed.
  useEffect(() => {
    const controller = new AbortController();
    listTemplates(undefined, { signal: controller.signal }).then(
      ({ result }) => setTemplates(Object.fromEntries(result.map((template) => [template.id, template]))),
      () => undefined,
    );
    getUploadLimits(undefined, { signal: controller.signal }).then(
      ({ result }) => setMaxBytes(result.maxBytes),
      () => undefined,
    );
    return () => controller.abort();
  }, []);

  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);

  const uploadFile = (file: File) => {
    setStart('upload');
    setError(null);
    void upload.start(file).then((uploaded) => {
      // An untouched title takes the name of the plan once it is in.
      const suggested = nameFromFile(file.name, MAP_TITLE_MAX);
      if (uploaded && suggested && !titleEdited.current) setTitle(suggested);
    });
  };

  const chooseImport = (files: readonly File[]) => {
    setStart('import');
    setError(null);
    const ordered = orderImportFiles(files);
    setImportFiles(ordered);
    const suggested = ordered[0] ? nameFromFile(ordered[0].name, MAP_TITLE_MAX) : '';
    if (suggested && !titleEdited.current) setTitle(suggested);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const checked = MapTitle.safeParse(title);
    if (!checked.success) {
      setTitleError(checked.error.issues[0]?.message ?? 'Check the title.');
      titleField.current?.querySelector('input')?.focus();
      return;
    }
    setTitleError(null);
    setError(null);
    const point = STARTING_POINTS.find((candidate) => candidate.id === start)!;
    try {
      let mapData: MapDocument | null = null;
      if (point.id === 'import') {
        if (importFiles.length === 0) {
          setError('Choose a file to import, or pick another starting point.');
          return;
        }
        // A blank map first: the server imports into a map that exists, and previews against it.
        setPhase('creating');
        const { result: id } = await createMapWith(checked.data, null);
        setImportInto({ id, title: checked.data });
        setPhase('idle');
        return;
      }
      if (point.id === 'upload') {
        let uploaded = upload.state.status === 'done' ? upload.state : null;
        if (upload.state.status === 'uploading') {
          setPhase('uploading');
          const file = await upload.wait();
          uploaded = file ? { status: 'done', name: upload.state.name, file } : null;
        }
        if (!uploaded) {
          setPhase('idle');
          setError(
            upload.state.status === 'failed'
              ? 'The file was not uploaded. Choose another file, or pick another starting point.'
              : 'Choose a file to upload, or pick another starting point.',
          );
          return;
        }
        mapData = documentForUpload(uploaded.file, uploaded.name);
      } else if (point.id === 'street') {
        mapData = documentForStreetMap(streetArea);
      } else if (point.template) {
        setPhase('preparing');
        mapData = await instantiateTemplate(point.template);
      }
      setPhase('creating');
      const { result: id } = await createMapWith(checked.data, mapData);
      await navigate(mapHref(id));
    } catch (failure) {
      setError(toApiError(failure).message);
      setPhase('idle');
    }
  };

  const status =
    phase === 'uploading'
      ? 'Finishing the upload…'
      : phase === 'preparing'
        ? `Preparing the ${start === 'world' ? 'world' : 'US'} map…`
        : phase === 'creating'
          ? 'Creating the map…'
          : upload.state.status === 'uploading'
            ? `Uploading ${upload.state.name}…`
            : upload.state.status === 'done' && start === 'upload'
              ? `${upload.state.name} is uploaded.`
              : '';


  return (
    <div
      className="page"
      // A file dropped anywhere on the page is an upload, never a navigation away from it.
      onDragOver={(event: DragEvent) => {
        if (Array.from(event.dataTransfer.types).includes('Files')) event.preventDefault();
      }}
      onDrop={(event: DragEvent) => {
        const file = droppedFile(event);
        if (!file) return;
        event.preventDefault();
        if (busy || importInto) return;
        if (start === 'import') chooseImport(Array.from(event.dataTransfer.files));
        else uploadFile(file);
      }}
    >
      <title>New map · Mapfold</title>
      <div className="container new-map">
        <div className="page-header">
          <Link to={backHref} className="back-link">
            ← Your maps
          </Link>
          <h1>New map</h1>
          <p>Give your map a title and choose where to start. You can change both later.</p>
        </div>

 {importInto ? (
          <section className="new-map__import card" aria-labelledby="new-map-import-title">
            <h2 id="new-map-import-title">Import into “{importInto.title}”</h2>
            <p className="new-map__note">The map is made. Check what the file brings and change what the guess got wrong, then import it.</p>
            <ImportFlow
              mapId={importInto.id}
              initialFiles={importFiles}
              pickLabel="Choose other files"
              headingLevel={3}
              onApplied={() => void navigate(mapHref(importInto.id))}
              onCancel={() => void navigate(mapHref(importInto.id))}
            />
            <p className="new-map__note">
              <Link to={mapHref(importInto.id)}>Open the empty map instead</Link>
            </p>
          </section>
        ) : (
        <form className="new-map__form card" onSubmit={(event) => void onSubmit(event)} aria-label="New map" noValidate aria-busy={busy || undefined}>
          {error ? (
            <div ref={errorRef} tabIndex={-1} className="new-map__error">
              <Alert>{error}</Alert>
            </div>
          ) : null}

          <div ref={titleField}>
            <TextField
            label="Title"
            name="title"
            placeholder={STARTING_POINTS.find((point) => point.id === start)?.placeholder}
            autoComplete="off"
            maxLength={MAP_TITLE_MAX}
            value={title}
            onChange={(event) => {
              titleEdited.current = true;
              setTitle(event.target.value);
              if (titleError) setTitleError(null);
            }}
            error={titleError}
            disabled={busy}
            className="new-map__title"
            />
          </div>

          <StartingPointPicker
            value={start}
            onChange={(value) => {
              setStart(value);
              setError(null);
            }}
            templates={templates}
            disabled={busy}
            onDropFile={uploadFile}
          />

          <div className="new-map__detail">
            {start === 'upload' ? (
              <UploadPanel upload={upload} maxBytes={maxBytes} onFile={uploadFile} disabled={busy} />
            ) : start === 'import' ? (
              <div className="new-map__files">
                <FileDrop
                  label={importFiles.length > 0 ? 'Choose other files' : 'Choose files'}
                  hint="A table of places (CSV or TSV), a Mapplic or Mapfold JSON, GeoJSON, KML or an SVG. With a Mapplic map, add its floor drawings too. You check what it brings before anything goes in."
                  onFiles={chooseImport}
                  disabled={busy}
                />
                {importFiles.length > 0 ? (
                  <ul className="new-map__file-list" aria-label="Files to import">
                    {importFiles.map((file) => (
                      <li key={`${file.name}-${file.size}`}>{file.name}</li>
                    ))}
                  </ul>
                ) : null}
              </div>
            ) : (
              <StartingPointNote start={start} template={templates[start]} streetArea={streetArea.name} />
            )}
          </div>

          <div className="new-map__actions">
            <p className="new-map__status" role="status" aria-live="polite">
              {status}
            </p>
            <div className="new-map__buttons">
              <ButtonLink to={backHref} variant="ghost">
                Cancel
              </ButtonLink>
              <Button type="submit" loading={busy}>
                Create map
              </Button>
            </div>
          </div>
        </form>
        )}
      </div>
    </div>
  );
}
