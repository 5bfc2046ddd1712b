/**
 * What makes the drawn map interactive, as one chunk that loads after the first paint
 * (map-renderer.tsx): the canvas's markers, pan and zoom, hover and click.
 */
export { MarkerLayer } from './marker-layer';
export { attachGestures } from './gestures';
export { attachPicking } from './pointer-picking';
