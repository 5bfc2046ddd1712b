/**
 * Live topics a client can subscribe to. One helper builds and parses them, so the server's
 * access check and the client's subscriptions agree on the format.
 */
export type Topic = { kind: 'maps'; uid: string } | { kind: 'map'; mapId: string };

export const topics = {
  maps: (uid: string) => `maps:${uid}`,
  map: (mapId: string) => `map:${mapId}`,
} as const;

const TOPIC = /^(maps|map):([A-Za-z0-9_-]{1,128})$/;

export function parseTopic(text: string): Topic | null {
  const match = TOPIC.exec(text);
  if (!match) return null;
  return match[1] === 'maps' ? { kind: 'maps', uid: match[2]! } : { kind: 'map', mapId: match[2]! };
}
