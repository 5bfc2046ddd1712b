/**
 * "Ben changed the title of “Cafe” to “Café Nord”": when a collaborator's edit lands on a field
 * this tab changed a moment ago (or still has waiting to be saved) and what the tab shows for it
 * jumps to their value, the editor says so in place of a silent jump. The last writer in the
 * server's order wins (that is what the events do); this only makes the loss visible.
 *
 * Pure bookkeeping, no timers: the session tells it what this tab touched and what came from
 * others, and asks after each change of the shown document which fields were overwritten.
 */
import type { LiveMapEvent } from '../../../../events/live-messages';
import type { MapDocument } from '../../../../events/map-document';
import { editOf, isEditEvent } from '../../../../events/map';
import type { MapEdit } from '../../../../events/map-edits';

/** One field of one thing in the document. */
export interface FieldRef {
  /** `map`: the map's own fields outside the document (its title). */
  kind: 'location' | 'group' | 'layer' | 'settings' | 'regions' | 'map';
  /** The location, group or layer; '' for the map-wide ones. */
  id: string;
  field: string;
}

export interface OverwriteNotice {
  id: number;
  /** Who overwrote it (display name), and the sentence the editor shows. */
  by: string;
  text: string;
  field: FieldRef;
}

/** A field this tab changed counts as "its" for this long: then a collaborator's write is news. */
export const RECENT_MS = 5_000;
/** At most this many notices at once; the oldest go first. */
const MAX_NOTICES = 3;

const keyOf = (ref: FieldRef) => `${ref.kind}:${ref.id}:${ref.field}`;

/** The fields an edit sets (adding or removing whole things sets none: there is nothing to overwrite). */
export function fieldsOf(edit: MapEdit): FieldRef[] {
  switch (edit.type) {
    case 'LocationUpdated':
      return Object.keys(edit.changes).map((field) => ({ kind: 'location', id: edit.id, field }));
    case 'LocationMoved':
      return [{ kind: 'location', id: edit.id, field: 'position' }, ...(edit.layer !== undefined ? [{ kind: 'location' as const, id: edit.id, field: 'layer' }] : [])];
    case 'GroupUpdated':
      return Object.keys(edit.changes).map((field) => ({ kind: 'group', id: edit.id, field }));
    case 'LayerRenamed':
      return [{ kind: 'layer', id: edit.id, field: 'name' }];
    case 'LayerFileReplaced':
      return [{ kind: 'layer', id: edit.id, field: 'file' }];
    case 'LayerCalibrated':
      return [{ kind: 'layer', id: edit.id, field: 'geo' }];
    case 'SettingsChanged':
      return Object.keys(edit.settings).map((field) => ({ kind: 'settings', id: '', field }));
    case 'RegionStylesChanged':
      return Object.keys(edit.regions).map((field) => ({ kind: 'regions', id: '', field }));
    default:
      return [];
  }
}

function thingOf(document: MapDocument, ref: FieldRef): Record<string, unknown> | undefined {
  switch (ref.kind) {
    case 'location':
      return document.locations.find((location) => location.id === ref.id);
    case 'group':
      return document.groups.find((group) => group.id === ref.id);
    case 'layer':
      return document.layers.find((layer) => layer.id === ref.id);
    case 'settings':
      return document.settings;
    case 'regions':
      return document.styles.regions;
    case 'map':
      return undefined;
  }
}

/** The field's value, comparable (JSON); undefined when the thing is gone. */
export function valueOf(document: MapDocument, ref: FieldRef): string | undefined {
  const thing = thingOf(document, ref);
  return thing ? JSON.stringify(thing[ref.field] ?? null) : undefined;
}

const FIELD_WORDS: Record<string, string> = {
  title: 'the title',
  name: 'the name',
  description: 'the description',
  about: 'the summary',
  position: 'the position',
  layer: 'the floor',
  geo: 'the calibration',
  groups: 'the groups',
  image: 'the image',
  color: 'the colour',
  file: 'the drawing',
};

/** "the title of “Cafe”", "the name of the floor “Ground”", "the map's search setting". */
export function describeField(document: MapDocument, ref: FieldRef): string {
  const words = FIELD_WORDS[ref.field] ?? `the ${ref.field.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}`;
  const thing = thingOf(document, ref);
  switch (ref.kind) {
    case 'location':
      return `${words} of “${String(thing?.title ?? ref.id)}”`;
    case 'group':
      return `${words} of the group “${String(thing?.name ?? ref.id)}”`;
    case 'layer':
      return `${words} of the floor “${String(thing?.name ?? ref.id)}”`;
    case 'settings':
      return `the map's ${ref.field.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()} setting`;
    case 'regions':
      return `the ${ref.field} colour of regions`;
    case 'map':
      return `the map's ${words.replace(/^the /, '')}`;
  }
}

/** A short text value is quoted in the sentence; anything else is only named. */
function shownValue(document: MapDocument, ref: FieldRef): string | null {
  const value = thingOf(document, ref)?.[ref.field];
  if (typeof value !== 'string' || value.length === 0 || /[<>]/.test(value)) return null;
  return value.length > 60 ? `${value.slice(0, 59)}…` : value;
}

/** The sentence: the thing named as this tab knew it (`before`), the value as it is now (`after`). */
export function overwriteText(by: string, before: MapDocument, after: MapDocument, ref: FieldRef): string {
  const value = shownValue(after, ref);
  return `${by} changed ${describeField(thingOf(before, ref) ? before : after, ref)}${value !== null ? ` to “${value}”` : ''}`;
}

export class OverwriteWatch {
  /** Field -> when this tab last changed it. */
  private readonly touchedAt = new Map<string, number>();
  /** Field -> the last collaborator's write heard for it, and when. */
  private readonly writes = new Map<string, { ref: FieldRef; by: string; value: string; at: number }>();
  private nextId = 1;
  notices: readonly OverwriteNotice[] = [];

  /** This tab changed these fields (an edit, an undo, a redo). */
  touched(edits: readonly MapEdit[], now: number): void {
    for (const edit of edits) for (const ref of fieldsOf(edit)) this.touchedAt.set(keyOf(ref), now);
  }

  /**
   * Events folded into the server's copy; the ones by someone else (`me` is this tab's user) are
   * remembered per field with the value they set (read from `after`, the server's new document).
   */
  heard(events: readonly LiveMapEvent[], me: string | null, after: MapDocument, now: number): void {
    for (const entry of events) {
      const event = entry.event;
      if (!event || !entry.by || entry.by.uid === me || !isEditEvent(event)) continue;
      for (const ref of fieldsOf(editOf(event))) {
        const key = keyOf(ref);
        // Only fields this tab has been at matter; the rest are ordinary collaboration.
        if (!this.touchedAt.has(key)) continue;
        const value = valueOf(after, ref);
        if (value !== undefined) this.writes.set(key, { ref, by: entry.by.name, value, at: now });
      }
    }
  }

  /**
   * After the shown document changed from `before` to `after` (the server's side moved, or a
   * pending edit of ours was settled): the fields this tab changed within {@link RECENT_MS}, or
   * has waiting in `pending`, that now show a collaborator's value. Each write is told once.
   */
  check(before: MapDocument, after: MapDocument, pending: readonly MapEdit[], now: number): boolean {
    const waiting = new Set(pending.flatMap((edit) => fieldsOf(edit).map(keyOf)));
    let added = false;
    for (const [key, write] of this.writes) {
      const mine = waiting.has(key) || now - (this.touchedAt.get(key) ?? Number.NEGATIVE_INFINITY) < RECENT_MS;
      if (now - write.at > RECENT_MS || !mine) {
        if (now - write.at > RECENT_MS) this.writes.delete(key);
        continue;
      }
      const shown = valueOf(after, write.ref);
      if (shown !== write.value || valueOf(before, write.ref) === shown) continue;
      this.writes.delete(key);
      const notice: OverwriteNotice = { id: this.nextId++, by: write.by, text: overwriteText(write.by, before, after, write.ref), field: write.ref };
      this.notices = [...this.notices.filter((old) => keyOf(old.field) !== key), notice].slice(-MAX_NOTICES);
      added = true;
    }
    for (const [key, at] of this.touchedAt) if (now - at > RECENT_MS && !waiting.has(key)) this.touchedAt.delete(key);
    return added;
  }

  /** A notice for something outside the document (the map's title). */
  add(by: string, text: string, field: FieldRef): void {
    this.notices = [...this.notices, { id: this.nextId++, by, text, field }].slice(-MAX_NOTICES);
  }

  dismiss(id: number): boolean {
    const before = this.notices.length;
    this.notices = this.notices.filter((notice) => notice.id !== id);
    return this.notices.length !== before;
  }
}
