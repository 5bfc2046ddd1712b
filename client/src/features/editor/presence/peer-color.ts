/**
 * A person's colour in presence (avatar, pointer, outline): picked from their uid, so it is the
 * same in every tab, on every device and for everyone looking. Every colour carries white text
 * at a contrast of 4.5:1 or more; none is the editor's own indigo (the accent of selections).
 */
export const PEER_COLORS = ['#c2410c', '#b91c1c', '#be185d', '#7e22ce', '#1d4ed8', '#0e7490', '#0f766e', '#4d7c0f', '#a16207', '#57534e'] as const;

/** FNV-1a over the uid's UTF-16 units: cheap, stable, and well spread over short ids. */
export function peerColor(uid: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < uid.length; index++) {
    hash ^= uid.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return PEER_COLORS[(hash >>> 0) % PEER_COLORS.length]!;
}
