/**
 * Whether a map is set aside: the server could not apply one of its events to its read
 * models, so the editor shows the map as it was before that event, with a notice, until the
 * team repairs it (projections/set-aside-streams.ts). What `GET /api/maps/{id}/set-aside`
 * answers and the editor reads.
 */
import { z } from 'zod';

export const MapSetAside = z.object({
  /** Null while every read model of the map is up to date. */
  setAside: z
    .object({
      /** What the owner quotes to the team: the id of the first event the map could not be updated with. */
      reference: z.string(),
      /** ISO time it was set aside. */
      since: z.string(),
    })
    .nullable(),
});
export type MapSetAside = z.infer<typeof MapSetAside>;

/** The notice the owner and editors of a set-aside map see. */
export const MAP_SET_ASIDE_NOTICE = 'This map could not be updated; the team has been told.';
