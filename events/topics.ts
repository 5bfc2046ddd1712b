/**
 * Live topics a client can subscribe to. One helper builds and parses them, so the server's
 * access check and the client's subscriptions agree on the format.
 */
/** `billing:{uid}`: the user's subscriptions, checkout sessions and slots (events/billing-api.ts). */
export type Topic = { kind: 'maps'; uid: string } | { kind: 'map'; mapId: string } | { kind: 'billing'; uid: string };

export const topics = {
  maps: (uid: string) => `maps:${uid}`,
  map: (mapId: string) => `map:${mapId}`,
  billing: (uid: string) => `billing:${uid}`,
} as const;

const TOPIC = /^(maps|map|billing):([A-Za-z0-9_-]{1,128})$/;

export function parseTopic(text: string): Topic | null {
  const match = TOPIC.exec(text);
  if (!match) return null;
  const key = match[2]!;
  if (match[1] === 'maps') return { kind: 'maps', uid: key };
  if (match[1] === 'billing') return { kind: 'billing', uid: key };
  return { kind: 'map', mapId: key };
}
