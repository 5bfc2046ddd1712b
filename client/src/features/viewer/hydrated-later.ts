/**
 * The viewer's parts that the server draws and the browser hydrates just after the map, as
 * one chunk (viewer.tsx, lib/lazy-part.ts): the directory (with the filter commands), the legend
 * and the minimap.
 */
export { ViewerDirectory as Directory } from './viewer-directory';
export { Legend } from './legend';
export { Minimap } from './minimap';
