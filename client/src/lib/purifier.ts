/**
 * DOMPurify, loaded on first use as its own chunk: the map's SVG layers, the viewer's rich
 * descriptions and the editor's rich-text field share the one copy.
 */

let purifier: Promise<typeof import('dompurify').default> | null = null;

export function loadPurifier(): Promise<typeof import('dompurify').default> {
  purifier ??= import('dompurify').then((module) => module.default);
  return purifier;
}
