/** Words the import preview's parts share (import-preview.tsx, import-rows.tsx). */

/** A part's heading level: one below the preview's own. */
export type PartHeading = 'h4' | 'h5';

/** "1 location", "1,234 locations". */
export const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
