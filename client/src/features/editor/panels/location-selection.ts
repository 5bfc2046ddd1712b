/**
 * The locations list's multi-select, as mail and design tools do it: a click toggles one
 * location and makes it the anchor; a shift-click sets every location between the anchor and
 * the one clicked (in the list's order) to what the clicked one becomes; "Select all" takes or
 * drops every location the list's filter matches, leaving the others as they are.
 */

export interface Selection {
  ids: ReadonlySet<string>;
  /** The last location toggled on its own: where the next shift-click's range starts. */
  anchor: string | null;
}

export const NO_SELECTION: Selection = { ids: new Set(), anchor: null };

/** One location toggled; it becomes the anchor. */
export function toggled(selection: Selection, id: string): Selection {
  const ids = new Set(selection.ids);
  if (ids.has(id)) ids.delete(id);
  else ids.add(id);
  return { ids, anchor: id };
}

/**
 * The range from the anchor to `id` (in `order`, the list as shown) set to what `id` becomes.
 * Without an anchor in the list, `id` alone is toggled.
 */
export function ranged(selection: Selection, order: readonly string[], id: string): Selection {
  const from = selection.anchor === null ? -1 : order.indexOf(selection.anchor);
  const to = order.indexOf(id);
  if (from < 0 || to < 0 || from === to) return toggled(selection, id);
  const on = !selection.ids.has(id);
  const ids = new Set(selection.ids);
  for (let index = Math.min(from, to); index <= Math.max(from, to); index += 1) {
    const each = order[index]!;
    if (on) ids.add(each);
    else ids.delete(each);
  }
  return { ids, anchor: id };
}

/** Every one of `matches` added (`on`) or taken out; the rest of the selection kept. */
export function withAll(selection: Selection, matches: readonly string[], on: boolean): Selection {
  const ids = new Set(selection.ids);
  for (const id of matches) {
    if (on) ids.add(id);
    else ids.delete(id);
  }
  return { ids, anchor: null };
}

/**
 * Shift with an arrow key, from `from` to `to` (next to each other in `order`): both selected,
 * and the range from the anchor (set at `from` when there is none) grows or shrinks to `to`,
 * as in a file list.
 */
export function extended(selection: Selection, order: readonly string[], from: string, to: string): Selection {
  const anchor = selection.anchor !== null && order.includes(selection.anchor) ? selection.anchor : from;
  const start = order.indexOf(anchor);
  const end = order.indexOf(to);
  const before = order.indexOf(from);
  if (start < 0 || end < 0 || before < 0) return selection;
  const ids = new Set(selection.ids);
  // Moving back toward the anchor takes the row left behind out of the range.
  if (Math.abs(end - start) < Math.abs(before - start)) ids.delete(from);
  for (let index = Math.min(start, end); index <= Math.max(start, end); index += 1) ids.add(order[index]!);
  return { ids, anchor };
}
