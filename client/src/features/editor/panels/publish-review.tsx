/**
 * What changed since the published revision, for the publishing panel: the two revisions read
 * and compared (events/map-changes.ts), where moved locations stood, and the list in words with
 * a button to show each location added or changed on the map.
 */
import { MapAtRevision } from '../../../../../events/history-api';
import { detailWords, diffDocuments, type DocumentChange, type DocumentChanges } from '../../../../../events/map-changes';
import { MapDocument } from '../../../../../events/map-document';
import type { MapPublication } from '../../../../../events/publishing-api';
import type { ApiClient } from '../../../lib/api';

/** Where a location stood in the published revision, when it has moved since. */
export interface PublishedPlace {
  layer: string;
  position: { x: number; y: number };
}

/** The published and the current map compared (null: nothing to compare, e.g. a live map). */
export interface Review {
  changes: DocumentChanges;
  /** Where each moved location stood in the published revision, by id. */
  movedFrom: Map<string, PublishedPlace>;
  titleChanged: { from: string; to: string } | null;
}

/** Changes listed one by one; the rest are counted. */
const LISTED = 40;

/** The map's API address. */
export const base = (mapId: string) => `/api/maps/${encodeURIComponent(mapId)}`;

export async function loadReview(api: ApiClient, mapId: string, publication: MapPublication, signal: AbortSignal): Promise<Review | null> {
  if (publication.mode === 'live' || publication.publishedRevision === null || publication.publishedRevision === publication.revision) return null;
  const [published, current] = await Promise.all(
    [publication.publishedRevision, publication.revision].map((revision) => api.get(`${base(mapId)}/revisions/${revision}`, MapAtRevision, { signal })),
  );
  const before = MapDocument.parse(published!.result.document);
  const after = MapDocument.parse(current!.result.document);
  const titleChanged = published!.result.title !== current!.result.title ? { from: published!.result.title, to: current!.result.title } : null;
  const changes = diffDocuments(before, after);
  const moved = new Set(changes.changes.filter((change) => change.kind === 'location' && change.details?.some((detail) => detail.field === 'moved' || detail.field === 'floor')).map((change) => change.id));
  const movedFrom = new Map<string, PublishedPlace>();
  for (const location of before.locations) {
    if (moved.has(location.id) && location.position) movedFrom.set(location.id, { layer: location.layer, position: location.position });
  }
  return { changes, titleChanged, movedFrom };
}

const KIND_WORDS: Record<DocumentChange['kind'], string> = { location: 'location', floor: 'floor', group: 'group', path: 'paths' };
const CHANGE_WORDS: Record<DocumentChange['change'], string> = { added: 'Added', changed: 'Changed', removed: 'Removed' };

/** What a change is about, after its badge: "location “Tea Room”", "3 path records". */
function changeSubject(change: DocumentChange): string {
  return change.kind === 'path' ? change.name : `${KIND_WORDS[change.kind]} “${change.name}”`;
}

/** What changed in a changed record, each part in words, the first capitalised ("Renamed “Info” → “Desk”", "moved"). */
function detailParts(change: DocumentChange): string[] {
  return (change.details ?? []).map((detail, index) => {
    const words = detailWords(detail);
    return index === 0 ? words.charAt(0).toUpperCase() + words.slice(1) : words;
  });
}

/** The details under a change, muted, parted by dots a screen reader hears as pauses. */
function ChangeDetails({ parts }: { parts: string[] }) {
  if (parts.length === 0) return null;
  return (
    <span className="pc-details">
      {parts.map((part, index) => (
        <span key={index}>
          {index > 0 ? (
            <>
              <span aria-hidden="true"> · </span>
              <span className="visually-hidden">; </span>
            </>
          ) : null}
          {part}
        </span>
      ))}
    </span>
  );
}

/** The count of changes not published, in words. */
export function pendingWords(review: Review | null): string {
  const total = (review?.changes.total ?? 0) + (review?.titleChanged ? 1 : 0);
  return total === 0 ? 'no changes to publish' : `${total.toLocaleString('en')} ${total === 1 ? 'change' : 'changes'} not published`;
}

/** The changes not published, listed (the first {@link LISTED}, the rest counted); locations can be shown on the map. */
export function ChangeReview({ review, pending, onShowLocation }: { review: Review; pending: number; onShowLocation: ((id: string, published: PublishedPlace | null) => void) | undefined }) {
  return (
    <details className="pc-review" open={pending <= 8}>
      <summary>What changed since the published revision</summary>
      <ul className="pc-list">
        {review.titleChanged ? (
          <li className="pc-item pc-item--changed">
            <span className="pc-badge">Changed</span> Title “{review.titleChanged.from}” → “{review.titleChanged.to}”
          </li>
        ) : null}
        {review.changes.settingsChanged ? (
          <li className="pc-item pc-item--changed">
            <span className="pc-badge">Changed</span> Settings
          </li>
        ) : null}
        {review.changes.changes.slice(0, LISTED).map((change) => (
          <li key={`${change.kind}:${change.id}`} className={`pc-item pc-item--${change.change}`}>
            <span className="pc-badge">{CHANGE_WORDS[change.change]}</span>{' '}
            <span className="pc-what">
              {onShowLocation && change.kind === 'location' && change.change !== 'removed' ? (
                <button type="button" className="pc-subject pc-show" onClick={() => onShowLocation(change.id, review.movedFrom.get(change.id) ?? null)} title="Show it on the map">
                  {changeSubject(change)}
                </button>
              ) : (
                <span className="pc-subject">{changeSubject(change)}</span>
              )}
              <ChangeDetails parts={detailParts(change)} />
            </span>
          </li>
        ))}
      </ul>
      {review.changes.changes.length > LISTED ? <p className="ep-hint">and {(review.changes.changes.length - LISTED).toLocaleString('en')} more</p> : null}
    </details>
  );
}
