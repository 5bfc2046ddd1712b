/**
 * The view links' keys themselves, beside the log: events and read models keep only a key's
 * hash (a key in an event would go wherever events go: the audit log, live pushes), yet the
 * owner must be able to see the link again. A key is stored before the event naming its hash
 * is appended; a key whose event never landed is never shown (nothing names its hash).
 * Not a projection: a rebuild cannot make keys again, so this table is never emptied.
 */
import type { Database, Queryable } from '../../ports/database.js';

export const VIEW_LINK_KEYS_SCHEMA = `
CREATE TABLE IF NOT EXISTS map_view_link_keys (
  key_hash text PRIMARY KEY,
  map_id text NOT NULL,
  key text NOT NULL
);`;

export class ViewLinkKeys {
  private constructor(private readonly db: Queryable) {}

  static async open(db: Database): Promise<ViewLinkKeys> {
    await db.exec(VIEW_LINK_KEYS_SCHEMA);
    return new ViewLinkKeys(db);
  }

  async keep(mapId: string, keyHash: string, key: string): Promise<void> {
    await this.db.query('INSERT INTO map_view_link_keys (key_hash, map_id, key) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [keyHash, mapId, key]);
  }

  /** The key of the map's current view link (by the members read model's hash), or null. */
  async currentKey(mapId: string): Promise<string | null> {
    const { rows } = await this.db.query<{ key: string }>(
      `SELECT k.key FROM map_view_links v JOIN map_view_link_keys k ON k.key_hash = v.key_hash AND k.map_id = v.map_id WHERE v.map_id = $1`,
      [mapId],
    );
    return rows[0]?.key ?? null;
  }
}

/** The address of a map's view link: the viewer, with the key. */
export function viewLinkUrl(publicUrl: string, mapId: string, key: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/m/${encodeURIComponent(mapId)}?key=${encodeURIComponent(key)}`;
}
