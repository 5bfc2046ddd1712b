/**
 * What a file's parser is given (server/import/parsers.ts): the file as bytes and as text, the
 * files uploaded with it, the user's choices, the mapping remembered from the map's last import
 * and the map as it is now. A parser answers an ImportPlan (events/map-import.ts) or throws a
 * refusal (refusal.ts) that says what the file was taken for, what is wrong and what to do.
 */
import type { ColumnMapping, ImportOptions, ImportPlan } from '../../events/map-import.js';
import type { MapDocument } from '../../events/map-document.js';

export interface ImportInput {
  bytes: Buffer;
  /** The bytes as text (UTF-8 or UTF-16 with a byte order mark, the mark taken off); '' when they are not text. */
  text: string;
  /** The file's name as the uploader gave it ('' if none). */
  filename: string;
  /** The Content-Type it was sent with, lowercase, without parameters ('' if none). */
  contentType: string;
  /** Files uploaded with it (a Mapplic map's level drawings and images), by file name. */
  attachments: Map<string, Buffer>;
  options: ImportOptions;
  /** The mapping of the map's last import of a table, to offer again when its columns are all there. */
  rememberedMapping: ColumnMapping | null;
  document: MapDocument;
  /** `?layer=`: the existing floor an SVG's regions become locations of. */
  targetLayer?: string;
}

export type ImportParser = (input: ImportInput) => ImportPlan | Promise<ImportPlan>;
