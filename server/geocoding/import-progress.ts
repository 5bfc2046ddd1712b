/**
 * How far an import's geocoding has got, for the preview's progress bar: the client names its
 * import with a token (`?progress=` on POST /api/maps/{id}/import) and asks
 * `GET /api/maps/{id}/import/progress?token=` while it waits. Kept in memory per user and map,
 * forgotten a few minutes after the last change (this process's imports only).
 */
export interface ImportProgressState {
  phase: 'geocoding' | 'planning' | 'done';
  done: number;
  total: number;
}

const KEEP_MS = 5 * 60_000;
const MAX_ENTRIES = 10_000;

export class ImportProgress {
  private readonly entries = new Map<string, ImportProgressState & { at: number }>();

  private key(user: string, mapId: string, token: string): string {
    return `${user}\u0000${mapId}\u0000${token}`;
  }

  set(user: string, mapId: string, token: string, state: ImportProgressState): void {
    const now = Date.now();
    if (this.entries.size >= MAX_ENTRIES) this.sweep(now);
    const key = this.key(user, mapId, token);
    this.entries.delete(key);
    this.entries.set(key, { ...state, at: now });
  }

  get(user: string, mapId: string, token: string): ImportProgressState | null {
    const entry = this.entries.get(this.key(user, mapId, token));
    if (!entry || Date.now() - entry.at > KEEP_MS) return null;
    return { phase: entry.phase, done: entry.done, total: entry.total };
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.entries) {
      if (now - entry.at > KEEP_MS || this.entries.size >= MAX_ENTRIES) this.entries.delete(key);
      else break;
    }
  }
}
