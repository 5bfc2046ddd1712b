/**
 * The sharing feature's calls (events/sharing-api.ts is the contract): the seven sharing
 * functions through `POST /api/fn/{name}`, the members of one map and the maps shared with
 * the caller. Every answer is checked against the contract's schema.
 */
import { z } from 'zod';
import { MapMembers, SharedMapItem, sharingFunctionPayloads, sharingFunctionResults, type SharingFunctionResults } from '../../../../../events/sharing-api';
import { comparePositions, type Position } from '../../../../../events/position';
import { api as defaultApi, type ApiAnswer, type ApiClient, type RequestOptions } from '../../../lib/api';

export type SharingFunction = keyof SharingFunctionResults;
export type SharingPayload<N extends SharingFunction> = z.input<(typeof sharingFunctionPayloads)[N]>;

/** Calls one sharing function; rejects with an ApiError (the catalogue's code and the server's message). */
export function callSharing<N extends SharingFunction>(name: N, data: SharingPayload<N>, client: ApiClient = defaultApi, options?: RequestOptions): Promise<ApiAnswer<SharingFunctionResults[N]>> {
  const schema = sharingFunctionResults[name] as unknown as z.ZodType<SharingFunctionResults[N]>;
  return client.request('POST', `/api/fn/${encodeURIComponent(name)}`, { data }, schema, options);
}

export function getMapMembers(mapId: string, client: ApiClient = defaultApi, options?: RequestOptions) {
  return client.get(`/api/maps/${encodeURIComponent(mapId)}/members`, MapMembers, options);
}

/** Module-level so hooks get a stable schema. */
export const SharedMaps = z.array(SharedMapItem);

export function getSharedMaps(client: ApiClient = defaultApi, options?: RequestOptions) {
  return client.get('/api/maps/shared', SharedMaps, options);
}

/** How often, and how long apart, a read is tried again while it lags behind a write. */
const CATCH_UP_TRIES = 12;
const CATCH_UP_DELAY_MS = 150;

/**
 * The members as of a write at `after` (read-your-writes): the read model answers with the
 * position it reflects, so a read that lags behind the write is tried again a few times. Gives
 * the last answer when the read model stays behind (the list may then miss the write for now).
 */
export async function getMapMembersAfter(mapId: string, after: Position | null, client: ApiClient = defaultApi, options?: RequestOptions): Promise<MapMembers> {
  let answer = await getMapMembers(mapId, client, options);
  for (let tries = 1; after && tries < CATCH_UP_TRIES; tries++) {
    if (answer.position && comparePositions(answer.position, after) >= 0) break;
    await new Promise((resolve) => setTimeout(resolve, CATCH_UP_DELAY_MS));
    if (options?.signal?.aborted) break;
    answer = await getMapMembers(mapId, client, options);
  }
  return answer.result;
}

/** The e-mail check of inviteToMap, run before sending so the field can say what is wrong at once. */
export function checkInviteEmail(email: string): { ok: true; email: string } | { ok: false; message: string } {
  const parsed = sharingFunctionPayloads.inviteToMap.shape.email.safeParse(email);
  return parsed.success ? { ok: true, email: parsed.data } : { ok: false, message: parsed.error.issues[0]?.message ?? 'Enter a valid email address.' };
}
