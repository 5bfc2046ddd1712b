/** Map state numbers (spec §4). States below 1 count against the free test allowance. */
export const MapState = {
  test: 0,
  live: 1,
  demo: 2,
  pro: 3,
  adm: 9,
} as const;
export type MapState = (typeof MapState)[keyof typeof MapState];

/** Free test slots per user (spec §9). */
export const FREE_TEST_SLOTS = 2;

/** True when a map in this state uses one of the free test slots. */
export function usesTestSlot(state: number): boolean {
  return state < 1;
}
