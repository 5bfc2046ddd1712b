/**
 * Ids for new layers, locations, groups and path records, made in the browser so an edit can be applied (and
 * undone) before the server has seen it. Random enough never to collide with a collaborator's.
 */
export function newElementId(prefix: 'loc' | 'layer' | 'group' | 'node' | 'edge' | 'conn'): string {
  const random = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID().replace(/-/g, '').slice(0, 12) : Math.random().toString(36).slice(2, 14);
  return `${prefix}-${random}`;
}
