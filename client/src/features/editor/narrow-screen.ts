/**
 * Whether the editor is on a phone-sized screen, where a panel is a sheet over the map (the
 * width editor.css switches at). False where matchMedia is missing (jsdom, old embeds).
 */
export function isNarrowScreen(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 720px)').matches;
}
