/**
 * KMZ: a KML zipped with the files it uses (icons, overlays), as Google Earth saves places and
 * ogr2ogr and My Maps export them. The placemarks are in its KML: `doc.kml` by convention, else
 * the first `.kml` at the top of the archive (as Google Earth reads it), else the first anywhere.
 * Only that file is unpacked (fflate, no native code); the images are not used.
 */
import { unzipSync } from 'fflate';

/** An unpacked KML beyond this is refused (the zip's own figure, checked before inflating): a few kilobytes may claim gigabytes. */
const MAX_KML_BYTES = 64 * 1024 * 1024;

const isKml = (name: string) => /\.kml$/i.test(name) && !name.startsWith('__MACOSX/');

/** Which of the archive's names is its KML, or null. */
export function mainKmlName(names: readonly string[]): string | null {
  const kml = names.filter(isKml);
  return kml.find((name) => name.toLowerCase() === 'doc.kml') ?? kml.find((name) => !name.includes('/')) ?? kml[0] ?? null;
}

/**
 * The KML inside a zip archive: its bytes, or null when the archive holds none (an Excel
 * workbook, a zip of something else) or cannot be read; `tooLarge` when it unpacks past
 * {@link MAX_KML_BYTES}.
 */
export function kmlInZip(bytes: Uint8Array): { name: string; bytes: Uint8Array } | { tooLarge: true } | null {
  try {
    const names: Array<{ name: string; size: number }> = [];
    // The first pass only lists (a filter answering false unpacks nothing).
    unzipSync(bytes, {
      filter: (file) => {
        names.push({ name: file.name, size: file.originalSize });
        return false;
      },
    });
    const name = mainKmlName(names.map((file) => file.name));
    if (name === null) return null;
    if (names.find((file) => file.name === name)!.size > MAX_KML_BYTES) return { tooLarge: true };
    const inner = unzipSync(bytes, { filter: (file) => file.name === name })[name];
    if (!inner) return null;
    if (inner.byteLength > MAX_KML_BYTES) return { tooLarge: true };
    return { name, bytes: inner };
  } catch {
    return null;
  }
}
