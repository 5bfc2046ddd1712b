/**
 * The sharing feature's calls (events/sharing-api.ts is the contract): the seven sharing
 * functions through `POST /api/fn/{name}`, the members of one map and the maps shared with
 * the caller. Every answer is checked against the contract's schema.
 */
import { z } from 'zod';
import { MapMembers, SharedMapItem, sharingFunctionPayloads, sharingFunctionResults, type SharingFunctionResults } from '../../../../../events/sharing-api';
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
 * The members once they show a change just made (read-your-writes): the members read model
 * follows the write a moment later, so a read that does not show it yet (`shows` says whether
 * it does) is tried again a few times. Null when it never did: the caller keeps what it shows.
 */
export async function getMapMembersShowing(mapId: string, shows: (members: MapMembers) => boolean, client: ApiClient = defaultApi, options?: RequestOptions): Promise<MapMembers | null> {
  for (let tries = 0; tries < CATCH_UP_TRIES; tries++) {
    if (tries > 0) await new Promise((resolve) => setTimeout(resolve, CATCH_UP_DELAY_MS));
    if (options?.signal?.aborted) return null;
    const { result } = await getMapMembers(mapId, client, options);
    if (shows(result)) return result;
  }
  return null;
}

/** The e-mail check of inviteToMap, run before sending so the field can say what is wrong at once. */
export function checkInviteEmail(email: string): { ok: true; email: string } | { ok: false; message: string } {
  const parsed = sharingFunctionPayloads.inviteToMap.shape.email.safeParse(email);
  return parsed.success ? { ok: true, email: parsed.data } : { ok: false, message: parsed.error.issues[0]?.message ?? 'Enter a valid email address.' };
}
