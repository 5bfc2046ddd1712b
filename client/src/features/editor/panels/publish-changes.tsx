/**
 * Drafts, review and scheduled publishing (issue 27): which revision the public sees, whether
 * edits go public at once or when someone publishes them, and, for the latter, what changed
 * since the published revision (events/map-changes.ts), "Publish changes", "Schedule…" (a date
 * and time; the server's scheduler publishes it) and "Roll back" to a saved version. Editors
 * see where things stand; the owner (and admins) act. Everything comes from
 * `GET /api/maps/{id}/publication` and the two revisions compared, read again after each action
 * and whenever the map's stream moves (an edit in any tab, a publish the scheduler made).
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { PublishMode } from '../../../../../events/map-publishing';
import { MapPublication } from '../../../../../events/publishing-api';
import { SegmentedToggle } from '../../../components/ui/segmented-toggle';
import { topics } from '../../../../../events/topics';
import { api as defaultApi, toApiError, type ApiClient } from '../../../lib/api';
import { useOptionalLiveClient } from '../../../lib/live';
import { formatDateTime } from '../history-time';
import { base, ChangeReview, loadReview, pendingWords, type PublishedPlace, type Review } from './publish-review';
import './publish-changes.css';

export type { PublishedPlace } from './publish-review';

export interface PublishChangesProps {
  mapId: string;
  api?: ApiClient;
  /**
   * Shows a location added or changed since the publish on the map (selected, brought into
   * view), with where it stood when published if it moved. Absent: the rows are plain text.
   */
  onShowLocation?: (id: string, published: PublishedPlace | null) => void;
}

type Loaded = { publication: MapPublication; review: Review | null };
type Busy = 'mode' | 'publish' | 'schedule' | 'cancel' | 'rollback' | null;

const MODE_OPTIONS = [
  { value: 'live' as const, label: 'At once' },
  { value: 'manual' as const, label: 'When we publish' },
];
/** Edits come in bursts while someone types: the review is read again once they pause. */
const RELOAD_AFTER_MS = 600;

/** The value of a `datetime-local` input for a time (local, to the minute). */
function localInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function PublishChanges({ mapId, api = defaultApi, onShowLocation }: PublishChangesProps) {
  const ids = useId();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const shown = useRef<Loaded | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [feedback, setFeedback] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [scheduling, setScheduling] = useState(false);
  const [when, setWhen] = useState('');
  const [rollbackTo, setRollbackTo] = useState('');
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);

  useEffect(() => {
    const controller = new AbortController();
    setLoadError(null);
    (async () => {
      const { result } = await api.get(`${base(mapId)}/publication`, MapPublication, { signal: controller.signal });
      const review = await loadReview(api, mapId, result, controller.signal);
      if (controller.signal.aborted) return;
      // The schedule shown came due and was published meanwhile (by the server, not here): said
      // in the panel's feedback, which must no longer hold "will be published".
      const due = shown.current?.publication.scheduled;
      if (due && !result.scheduled && result.publishedRevision === due.revision) {
        setFeedback({ tone: 'success', text: `Revision ${due.revision} was published as scheduled.` });
      }
      shown.current = { publication: result, review };
      setLoaded(shown.current);
    })().catch((error: unknown) => {
      if (!controller.signal.aborted) setLoadError(toApiError(error).message);
    });
    return () => controller.abort();
  }, [api, mapId, generation]);

  // The map's stream moved (an edit here or in another tab, a publish by the scheduler at its
  // time): read again, once the burst is over. The snapshot on subscribing is what was loaded.
  const live = useOptionalLiveClient();
  useEffect(() => {
    if (!live) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = live.subscribe(topics.map(mapId), (data) => {
      if (data.kind !== 'map' || data.snapshot || data.events.length === 0) return;
      clearTimeout(timer);
      timer = setTimeout(reload, RELOAD_AFTER_MS);
    });
    return () => {
      clearTimeout(timer);
      stop();
    };
  }, [live, mapId, reload]);

  // Edits made in the editor meanwhile: read again when the panel is looked at again.
  useEffect(() => {
    const onFocus = () => reload();
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [reload]);

  const act = async (kind: Exclude<Busy, null>, run: () => Promise<unknown>, success: string) => {
    if (busy) return;
    setBusy(kind);
    setFeedback(null);
    try {
      await run();
      setFeedback({ tone: 'success', text: success });
      setScheduling(false);
      reload();
    } catch (error) {
      setFeedback({ tone: 'error', text: toApiError(error).message });
    } finally {
      setBusy(null);
    }
  };

  if (!loaded) {
    return (
      <section className="ep-section pc" aria-labelledby={`${ids}-title`}>
        <h3 id={`${ids}-title`} className="ep-section__title">
          Changes
        </h3>
        {loadError ? (
          <p className="ep-error" aria-live="assertive">
            {loadError}{' '}
            <button type="button" className="ep-link-button" onClick={reload}>
              Try again
            </button>
          </p>
        ) : (
          <p className="ep-hint" aria-busy="true">
            Loading what is published…
          </p>
        )}
      </section>
    );
  }

  const { publication, review } = loaded;
  const manual = publication.mode === 'manual';
  const owner = publication.canPublish;
  const pending = (review?.changes.total ?? 0) + (review?.titleChanged ? 1 : 0);
  const setMode = (mode: PublishMode) =>
    void act(
      'mode',
      () => api.callFunction('setMapPublishMode', { mapId, mode }),
      mode === 'live' ? 'Every edit is public at once from now on.' : 'Edits now wait for you to publish them. The public map stays as it is.',
    );
  const publishNow = () => void act('publish', () => api.callFunction('publishMapChanges', { mapId, revision: publication.revision }), `Published revision ${publication.revision}.`);
  const schedule = () => {
    const at = when ? new Date(when) : null;
    if (!at || Number.isNaN(at.getTime()) || at.getTime() <= Date.now()) {
      setFeedback({ tone: 'error', text: 'Choose a date and time in the future.' });
      return;
    }
    void act('schedule', () => api.callFunction('publishMapChanges', { mapId, revision: publication.revision, at: at.toISOString() }), `Revision ${publication.revision} will be published ${formatDateTime(at.toISOString())}.`);
  };
  const cancel = () => void act('cancel', () => api.callFunction('cancelMapPublishSchedule', { mapId }), 'The scheduled publish is cancelled.');
  const version = publication.versions.find((item) => item.id === rollbackTo) ?? null;
  const rollback = () => {
    if (!version) return;
    void act('rollback', () => api.callFunction('publishMapChanges', { mapId, revision: version.revision }), `The public map is back to “${version.name ?? formatDateTime(version.created)}”.`);
  };

  return (
    <section className="ep-section pc" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`} className="ep-section__title">
        Changes
      </h3>

      {owner ? (
        <SegmentedToggle label="Publish edits" options={MODE_OPTIONS} value={publication.mode} onChange={setMode} size="sm" disabled={busy !== null} className="pc-mode" />
      ) : (
        <p className="ep-hint">Publish edits: {manual ? 'when the owner publishes them' : 'at once'}.</p>
      )}

      {manual ? (
        <>
          <p className="pc-summary" data-testid="publish-summary">
            <strong>{publication.publishedRevision === null ? 'Not published yet' : `Published revision ${publication.publishedRevision}`}</strong>
            <span aria-hidden="true"> · </span>
            <span className="visually-hidden">, </span>
            <span className={pending > 0 ? 'pc-pending' : undefined}>{publication.publishedRevision === null ? 'publishing puts it in a slot' : pendingWords(review)}</span>
          </p>
          {publication.publishedAt ? <p className="ep-hint">Last published {formatDateTime(publication.publishedAt)}.</p> : null}

          {review && pending > 0 ? <ChangeReview review={review} pending={pending} onShowLocation={onShowLocation} /> : null}

          {publication.scheduled ? (
            <div className="pc-scheduled">
              <p>
                Revision {publication.scheduled.revision} will be published <strong>{formatDateTime(publication.scheduled.publishAt)}</strong>.
              </p>
              {owner ? (
                <button type="button" className="ep-button" onClick={cancel} disabled={busy !== null} aria-busy={busy === 'cancel' || undefined}>
                  {busy === 'cancel' ? 'Cancelling…' : 'Cancel schedule'}
                </button>
              ) : null}
            </div>
          ) : null}

          {owner && publication.publishedRevision !== null ? (
            <div className="pc-actions">
              <button type="button" className="ep-button ep-button--primary" onClick={publishNow} disabled={busy !== null || pending === 0} aria-busy={busy === 'publish' || undefined}>
                {busy === 'publish' ? 'Publishing…' : 'Publish changes'}
              </button>
              <button type="button" className="ep-button" onClick={() => { setScheduling((open) => !open); setWhen((now) => now || localInputValue(new Date(Date.now() + 60 * 60 * 1000))); }} aria-expanded={scheduling} disabled={busy !== null || pending === 0}>
                Schedule…
              </button>
            </div>
          ) : null}

          {owner && scheduling ? (
            <div className="pc-schedule">
              <div className="ep-field">
                <label htmlFor={`${ids}-when`}>Publish on</label>
                <input id={`${ids}-when`} className="ep-input" type="datetime-local" value={when} min={localInputValue(new Date())} onChange={(event) => setWhen(event.target.value)} />
              </div>
              <button type="button" className="ep-button ep-button--primary" onClick={schedule} disabled={busy !== null} aria-busy={busy === 'schedule' || undefined}>
                {busy === 'schedule' ? 'Scheduling…' : 'Schedule publish'}
              </button>
            </div>
          ) : null}

          {owner && publication.publishedRevision !== null && publication.versions.length > 0 ? (
            <div className="pc-rollback">
              <div className="ep-field">
                <label htmlFor={`${ids}-version`}>Roll back the public map to</label>
                <select id={`${ids}-version`} className="ep-input" value={rollbackTo} onChange={(event) => setRollbackTo(event.target.value)}>
                  <option value="">Choose a saved version…</option>
                  {publication.versions.map((item) => (
                    <option key={item.id} value={item.id}>
                      {item.name ?? 'Unnamed version'} · {formatDateTime(item.created)}
                    </option>
                  ))}
                </select>
              </div>
              <button type="button" className="ep-button" onClick={rollback} disabled={busy !== null || !version} aria-busy={busy === 'rollback' || undefined}>
                {busy === 'rollback' ? 'Rolling back…' : 'Roll back'}
              </button>
            </div>
          ) : null}
        </>
      ) : (
        <p className="ep-hint">Every edit is public as soon as it is saved.</p>
      )}

      {/* Always in the page, so screen readers hear the outcome when it is written (a live region
          without a role: the panel's own feedback above is its status). */}
      <p className={`pc-feedback${feedback ? ` pc-feedback--${feedback.tone}` : ''}`} aria-live={feedback?.tone === 'error' ? 'assertive' : 'polite'}>
        {feedback?.text ?? null}
      </p>
    </section>
  );
}
