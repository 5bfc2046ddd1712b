/**
 * A person's colour in presence (avatar, pointer, outline): picked from their uid, so it is the
 * same in every tab, on every device and for everyone looking. Every colour carries white text
 * at a contrast of 4.5:1 or more, and stands out on the light and the dark map themes.
 */
export const PEER_COLORS = ['#c2410c', '#b91c1c', '#be185d', '#7e22ce', '#4338ca', '#1d4ed8', '#0369a1', '#0f766e', '#15803d', '#a16207'] as const;

/** FNV-1a over the uid's UTF-16 units: cheap, stable, and well spread over short ids. */
export function peerColor(uid: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < uid.length; index++) {
    hash ^= uid.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return PEER_COLORS[(hash >>> 0) % PEER_COLORS.length]!;
}
