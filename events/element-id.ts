/**
 * The id of anything inside a map document (a floor, a location, a group, a path point, a link, a
 * connector): safe in a URL, an SVG id reference and a CSV cell. One rule, so an id made for
 * one kind can name it from another (a location's entrances name path points).
 */
import { z } from 'zod';

export const ElementId = z
  .string({ error: 'must be text' })
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, - or _');

export { elementIdFor, isSvgElementId, SVG_ELEMENT_ID_MAX } from './svg-element-id.js';
