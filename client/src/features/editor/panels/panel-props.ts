/**
 * What every editor panel gets: the document as the editor shows it (the server's copy with
 * the user's unsaved edits on top) and one way to change it. Panels never save anything
 * themselves: `onEdit` applies the edits at once, records one undo step and saves them.
 */
import type { MapDocument } from '../../../../../events/map-document';
import type { MapEdit } from '../../../../../events/map-edits';

export interface EditOptions {
  /**
   * Edits with the same key made within a moment of each other are one undo step and are sent
   * together (typing a title letter by letter: key `location:{id}:title`).
   */
  coalesce?: string;
}

export type OnEdit = (edits: MapEdit[], options?: EditOptions) => void;

export interface EditorPanelProps {
  document: MapDocument;
  onEdit: OnEdit;
}
