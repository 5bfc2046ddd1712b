/**
 * Which of a map's revisions the public sees (issue 27, drafts and publishing;
 * events/map-publishing.ts), read for the public map cache: a live map (every map recorded
 * before publishing existed) and every test map show the current document from `map_data`, as
 * before; a manual map shows its title and document as of its published revision, folded from
 * its stream through the history's snapshots (server/history/map-history.ts) and kept here per
 * revision, so the edits of a draft (each of which drops the cache's answer) cost no new fold.
 *
 * A manual map never published is not public yet: it is a test map, shown only to whoever may
 * see it, with the viewer's notice; taking a slot is its first publish (the map decider records
 * both). A row put in a slot by hand without a publish (SQL, as some tests do) shows its current
 * document, as every map in a slot did before publishing existed.
 */
import { LRUCache } from 'lru-cache';
import { DomainError } from '../../events/errors.js';
import type { MapDocument } from '../../events/map-document.js';
import { usesTestSlot } from '../../events/map-states.js';
import { documentOfRow, mapDocumentColumnsSql } from '../../projections/map-data.js';
import { publicationColumnsSql, publicationOfRow } from '../../projections/map-publication.js';
import type { Queryable } from '../../ports/database.js';
import type { MapHistory } from '../history/map-history.js';

/** A map's row as the public map cache reads it (map data joined with the map's state). */
export interface PublicMapRow {
  id: string;
  title: string;
  data: unknown;
  /** The revision the public sees (the published one on a manual map). */
  revision: string;
  state: number;
}

/** The map's title and document right after the event at `revision` (null: no such revision). */
export type PublishedStateReader = (mapId: string, revision: bigint) => Promise<{ title: string; document: MapDocument } | null>;

/** The reader of published revisions from the map's history (the app's; tests may give their own). */
export function publishedStateReader(history: Pick<MapHistory, 'stateAt'>): PublishedStateReader {
  return async (mapId, revision) => {
    try {
      const { state } = await history.stateAt(mapId, revision);
      return state.status === 'active' ? { title: state.title, document: state.document } : null;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'not-found') return null;
      throw error;
    }
  };
}

/** Published revisions kept, of the maps read most recently (each may be megabytes: few). */
const PUBLISHED_KEPT = 16;

export class PublishedMaps {
  private readonly kept = new LRUCache<string, { title: string; document: MapDocument }>({ max: PUBLISHED_KEPT });

  constructor(private readonly readState: PublishedStateReader | undefined) {}

  /**
   * The map `id` as the public sees it, or null when there is no such map. One query: the
   * current document's columns are read only when they are what the public sees (a one-time
   * filter in the lateral subquery), so a manual map's draft is never read for the public.
   */
  async load(db: Queryable, id: string): Promise<PublicMapRow | null> {
    const { rows } = await db.query<PublicMapRow & { locations: string | null; paths: string | null; publish_mode?: string; published_revision?: string | null }>(
      `SELECT d.id, d.title, doc.data, doc.locations, doc.paths, d.revision::text AS revision, l.state, ${publicationColumnsSql('p')}
         FROM map_data d JOIN maps_list l ON l.id = d.id LEFT JOIN map_publication p ON p.map_id = d.id
         LEFT JOIN LATERAL (SELECT ${mapDocumentColumnsSql('d')} WHERE NOT (${PUBLISHED_REVISION_SHOWN})) doc ON true
        WHERE d.id = $1`,
      [id],
    );
    const row = rows[0];
    if (!row) return null;
    const publication = publicationOfRow({ publish_mode: row.publish_mode ?? 'live', published_revision: row.published_revision ?? null });
    const { id: mapId, title, revision, state } = row;
    if (publication.mode === 'manual' && publication.revision !== null && !usesTestSlot(state)) {
      const published = await this.published(mapId, publication.revision);
      return published ? { id: mapId, title: published.title, data: published.document, revision: publication.revision, state } : null;
    }
    const data = documentOfRow({ data: row.data, locations: row.locations, paths: row.paths ?? '{}' });
    return { id: mapId, title, data, revision, state };
  }

  private async published(mapId: string, revision: string): Promise<{ title: string; document: MapDocument } | null> {
    const key = `${mapId}@${revision}`;
    const kept = this.kept.get(key);
    if (kept) return kept;
    const read = (await this.readState?.(mapId, BigInt(revision))) ?? null;
    if (read) this.kept.set(key, read);
    return read;
  }
}

/** The SQL condition under which the public sees a published revision, not the current document (as {@link PublishedMaps.load} decides). */
const PUBLISHED_REVISION_SHOWN = `p.mode = 'manual' AND p.published_revision IS NOT NULL AND l.state >= 1`;
