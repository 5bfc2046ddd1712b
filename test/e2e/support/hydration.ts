/**
 * Whether the viewer's framework has hydrated the directory's search box (the directory hydrates
 * after the map, from its own chunk): its event handlers are on the element. Preact, which the
 * viewer runs on since issue 29 (vite.config.ts), keeps them in `__e` (its mangled `_listeners`,
 * preact/dist/preact.mjs); React, in `__reactProps$…`. Run in the page (page.waitForFunction).
 */
export function searchBoxHydrated(): boolean {
  const box = document.querySelector('.mf-search__input');
  return box !== null && Object.keys(box).some((key) => key === '__e' || key.startsWith('__reactProps'));
}
