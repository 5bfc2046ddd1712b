/**
 * The timeline, shown in place of the editor's canvas: every event of the map in words (who,
 * when; "Older events" pages back), a step control over the revisions (previous, next, a
 * slider), and the map as it was right after the chosen event, read-only, with the locations
 * that differ from the current map listed and highlighted. Esc or "Back to editing" leaves.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { MapAtRevision, TimelinePage, type TimelineItem } from '../../../../../events/history-api';
import type { MapDocument } from '../../../../../events/map-document';
import { Camera } from '../../../components/map/camera';
import { MapRenderer } from '../../../components/map/map-renderer';
import type { Location } from '../../../components/map/types';
import { api, toApiError } from '../../../lib/api';
import { EditorIcon } from '../editor-icons';
import { formatDateTime, formatRelative } from '../history-time';
import { changeInWords, differenceSummary, diffLocations } from './location-diff';
import './timeline.css';

export interface TimelineViewProps {
  mapId: string;
  /** The map as the editor has it now (what the revision is compared with). */
  document: MapDocument;
  onClose: () => void;
}

const PAGE_SIZE = 50;
/** The slider asks for a revision once it rests this long (not for every step of a drag). */
const SETTLE_MS = 150;

type Events = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'ready'; items: TimelineItem[]; total: number; next: string | null };
type AtRevision = { status: 'loading'; revision: number; last: MapAtRevision | null } | { status: 'failed'; revision: number; message: string; last: MapAtRevision | null } | { status: 'ready'; revision: number; map: MapAtRevision };

const base = (mapId: string) => `/api/maps/${encodeURIComponent(mapId)}`;
const describe = (location: Location) => (location.about ? `${location.title}, ${location.about}` : location.title);

export function TimelineView({ mapId, document: current, onClose }: TimelineViewProps) {
  const ids = useId();
  const [events, setEvents] = useState<Events>({ status: 'loading' });
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<string | null>(null);
  const [revision, setRevision] = useState<number | null>(null);
  const [at, setAt] = useState<AtRevision | null>(null);
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [layerChoice, setLayerChoice] = useState<string | null>(null);
  const camera = useMemo(() => new Camera(), []);
  useEffect(() => () => camera.dispose(), [camera]);
  const backRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    backRef.current?.focus();
  }, []);

  // The newest page of events; the revision shown starts at the last one (the map as it is).
  useEffect(() => {
    const controller = new AbortController();
    api.get(`${base(mapId)}/timeline?limit=${PAGE_SIZE}`, TimelinePage, { signal: controller.signal }).then(
      ({ result }) => {
        setEvents({ status: 'ready', items: result.items, total: result.total, next: result.next });
        setRevision(result.total > 0 ? result.total - 1 : null);
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setEvents({ status: 'failed', message: toApiError(error).message });
      },
    );
    return () => controller.abort();
  }, [mapId]);

  // The map at the chosen revision, once the choice rests.
  useEffect(() => {
    if (revision === null) return;
    const controller = new AbortController();
    setAt((previous) => ({ status: 'loading', revision, last: previous?.status === 'ready' ? previous.map : (previous?.last ?? null) }));
    const timer = setTimeout(() => {
      api.get(`${base(mapId)}/revisions/${revision}`, MapAtRevision, { signal: controller.signal }).then(
        ({ result }) => setAt({ status: 'ready', revision, map: result }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setAt((previous) => ({ status: 'failed', revision, message: toApiError(error).message, last: previous?.status === 'ready' ? previous.map : (previous?.last ?? null) }));
        },
      );
    }, SETTLE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [mapId, revision]);

  // Esc goes back to editing (unless a field or a dialog has it).
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('[role="dialog"], input:not([type="range"]), textarea, select')) return;
      closeRef.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const loadOlder = async () => {
    if (events.status !== 'ready' || !events.next) return;
    setLoadingOlder(true);
    setOlderError(null);
    try {
      const { result } = await api.get(`${base(mapId)}/timeline?before=${encodeURIComponent(events.next)}&limit=${PAGE_SIZE}`, TimelinePage);
      setEvents((now) =>
        now.status === 'ready'
          ? { status: 'ready', items: [...now.items, ...result.items.filter((item) => !now.items.some((seen) => seen.revision === item.revision))], total: Math.max(now.total, result.total), next: result.next }
          : now,
      );
    } catch (error) {
      setOlderError(toApiError(error).message);
    } finally {
      setLoadingOlder(false);
    }
  };

  const shown: MapAtRevision | null = at === null ? null : at.status === 'ready' ? at.map : at.last;
  const differences = useMemo(() => (shown ? diffLocations(shown.document, current) : []), [shown, current]);
  // The location highlighted: the one chosen in the list, else the first that is on the map then.
  const onMapThen = useMemo(() => new Set(shown?.document.locations.map((location) => location.id) ?? []), [shown]);
  const highlighted =
    (chosenId && onMapThen.has(chosenId) ? chosenId : null) ?? differences.find((difference) => onMapThen.has(difference.id))?.id ?? null;
  const highlightedLayer = highlighted ? shown?.document.locations.find((location) => location.id === highlighted)?.layer : undefined;
  const layers = shown?.document.layers ?? [];
  const layer =
    layers.find((candidate) => candidate.id === layerChoice) ??
    layers.find((candidate) => candidate.id === highlightedLayer) ??
    layers.find((candidate) => candidate.id === shown?.document.settings.defaultLayer) ??
    layers[0];

  const total = events.status === 'ready' ? events.total : 0;
  const step = (to: number) => {
    if (total === 0) return;
    setRevision(Math.min(total - 1, Math.max(0, to)));
    setChosenId(null);
    setLayerChoice(null);
  };
  const eventAt = (n: number | null) => (events.status === 'ready' && n !== null ? events.items.find((item) => item.revision === String(n)) : undefined);
  const chosenEvent = eventAt(revision);

  return (
    <div className="ed-tl" role="region" aria-label="Timeline">
      <div className="ed-tl__head">
        <h2 className="ed-tl__title">Timeline</h2>
        <button ref={backRef} type="button" className="ed-button" onClick={onClose}>
          <EditorIcon name="edit" size={16} />
          <span>Back to editing</span>
        </button>
      </div>

      {events.status === 'loading' ? <p className="ed-tl__note" role="status">Loading the timeline…</p> : null}
      {events.status === 'failed' ? (
        <p className="ed-tl__error" role="alert">
          The timeline could not be loaded: {events.message}
        </p>
      ) : null}

      {events.status === 'ready' ? (
        <div className="ed-tl__body">
          <div className="ed-tl__view">
            <div className="ed-tl__steps" role="group" aria-label="Step through the revisions">
              <button type="button" className="ed-icon-button" aria-label="Previous revision" disabled={revision === null || revision <= 0} onClick={() => revision !== null && step(revision - 1)}>
                <EditorIcon name="back" />
              </button>
              <input
                type="range"
                className="ed-tl__slider"
                aria-label="Revision"
                min={0}
                max={Math.max(0, total - 1)}
                step={1}
                value={revision ?? 0}
                disabled={total === 0}
                aria-valuetext={revision === null ? 'No revisions' : `Revision ${revision} of ${total - 1}${chosenEvent ? `: ${chosenEvent.summary}` : ''}`}
                onChange={(event) => step(Number(event.target.value))}
              />
              <button type="button" className="ed-icon-button ed-tl__next" aria-label="Next revision" disabled={revision === null || revision >= total - 1} onClick={() => revision !== null && step(revision + 1)}>
                <EditorIcon name="back" />
              </button>
              <output className="ed-tl__at" htmlFor={`${ids}-list`}>
                {revision === null ? 'No events yet' : `Revision ${revision} of ${total - 1}`}
              </output>
            </div>
            {chosenEvent ? <p className="ed-tl__event">{chosenEvent.summary}</p> : null}

            <div className="ed-tl__map" aria-busy={at?.status === 'loading' || undefined}>
              {shown && layer ? (
                <MapRenderer
                  document={shown.document}
                  layer={layer}
                  camera={camera}
                  selectedId={highlighted}
                  visibleIds={null}
                  describe={describe}
                  label={`The map at revision ${shown.revision}, ${layer.name}`}
                  onSelect={(id) => setChosenId(id)}
                >
                  {layers.length > 1 ? (
                    <div className="ed-canvas__floors" role="group" aria-label="Floors" data-mf-ui="">
                      {layers.map((candidate) => (
                        <button key={candidate.id} type="button" className="ed-floor" aria-pressed={candidate.id === layer.id} onClick={() => setLayerChoice(candidate.id)}>
                          {candidate.name}
                        </button>
                      ))}
                    </div>
                  ) : null}
                </MapRenderer>
              ) : null}
              {at?.status === 'loading' ? <p className="ed-tl__loading" role="status">Loading revision {at.revision}…</p> : null}
              {at?.status === 'failed' ? (
                <p className="ed-tl__error" role="alert">
                  Revision {at.revision} could not be loaded: {at.message}
                </p>
              ) : null}
            </div>

            {shown ? (
              <section className="ed-tl__diff" aria-labelledby={`${ids}-diff`}>
                <p id={`${ids}-diff`} className="ed-tl__diff-summary" role="status">
                  {differenceSummary(differences)}
                </p>
                {differences.length > 0 ? (
                  <ul className="ed-tl__diff-list" aria-label="Locations that differ">
                    {differences.map((difference) => (
                      <li key={difference.id} data-change={difference.change}>
                        {onMapThen.has(difference.id) ? (
                          <button
                            type="button"
                            className="ed-tl__diff-item"
                            aria-pressed={highlighted === difference.id}
                            onClick={() => {
                              setChosenId(difference.id);
                              setLayerChoice(difference.layer);
                            }}
                          >
                            {difference.title}
                          </button>
                        ) : (
                          <span className="ed-tl__diff-item">{difference.title}</span>
                        )}{' '}
                        <span className="ed-tl__change">{changeInWords(difference.change)}</span>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </section>
            ) : null}
          </div>

          <section className="ed-tl__events" aria-labelledby={`${ids}-events`}>
            <h3 id={`${ids}-events`} className="ed-tl__events-title">
              Events, newest first <span className="ed-tl__count">({total})</span>
            </h3>
            {events.items.length === 0 ? <p className="ed-tl__note">No events yet.</p> : null}
            <ol id={`${ids}-list`} className="ed-tl__list" aria-labelledby={`${ids}-events`}>
              {events.items.map((item) => (
                <li key={item.revision} className="ed-tl__item" data-current={item.revision === String(revision) ? 'true' : undefined} data-published={item.type === 'MapPublished' ? 'true' : undefined}>
                  <button type="button" className="ed-tl__item-button" aria-current={item.revision === String(revision) ? 'step' : undefined} onClick={() => step(Number(item.revision))}>
                    {/* A publish is what the public sees from then on: marked so it stands out in the list. */}
                    {item.type === 'MapPublished' ? <span className="ed-tl__published">Public</span> : null}
                    {item.summary}
                  </button>
                  <span className="ed-tl__meta">
                    {item.actor.name} ·{' '}
                    <time dateTime={item.at} title={formatDateTime(item.at)}>
                      {formatRelative(item.at)}
                    </time>{' '}
                    · revision {item.revision}
                  </span>
                </li>
              ))}
            </ol>
            {events.next ? (
              <button type="button" className="ed-button ed-tl__older" disabled={loadingOlder} aria-busy={loadingOlder || undefined} onClick={() => void loadOlder()}>
                {loadingOlder ? 'Loading…' : 'Older events'}
              </button>
            ) : null}
            {olderError ? (
              <p className="ed-tl__error" role="alert">
                {olderError}
              </p>
            ) : null}
          </section>
        </div>
      ) : null}
    </div>
  );
}
