/**
 * Live topics a client can subscribe to. One helper builds and parses them, so the server's
 * access check and the client's subscriptions agree on the format.
 */
/**
 * `billing:{uid}`: the user's subscriptions, checkout sessions and slots (events/billing-api.ts).
 * `comments:{mapId}`: a map's comment threads (events/comments-api.ts MapComments).
 */
export type Topic = { kind: 'maps'; uid: string } | { kind: 'map'; mapId: string } | { kind: 'billing'; uid: string } | { kind: 'comments'; mapId: string };

export const topics = {
  maps: (uid: string) => `maps:${uid}`,
  map: (mapId: string) => `map:${mapId}`,
  billing: (uid: string) => `billing:${uid}`,
  comments: (mapId: string) => `comments:${mapId}`,
} as const;

const TOPIC = /^(maps|map|billing|comments):([A-Za-z0-9_-]{1,128})$/;

export function parseTopic(text: string): Topic | null {
  const match = TOPIC.exec(text);
  if (!match) return null;
  const key = match[2]!;
  if (match[1] === 'maps') return { kind: 'maps', uid: key };
  if (match[1] === 'billing') return { kind: 'billing', uid: key };
  if (match[1] === 'comments') return { kind: 'comments', mapId: key };
  return { kind: 'map', mapId: key };
}
