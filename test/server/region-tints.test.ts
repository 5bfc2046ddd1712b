/**
 * The regions' tints of the page without JavaScript (issue 18, server/public-maps/region-tints.ts):
 * each location's region copied from the floor's SVG inside its ancestors' transforms, filled as
 * the live floor fills it (its colour or its group's, lightened; else the map's region colour),
 * with the drawing's viewBox; nothing but checked geometry reaches the page, and a drawing
 * whose copy would be large, or that cannot be read, gets none.
 */
import { describe, expect, it } from 'vitest';
import { REGION_TINT, tint } from '../../events/colour-tint.js';
import { REGION_TINTS_MAX_CHARS, regionTintsMarkup } from '../../server/public-maps/region-tints.js';

const floor = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300" preserveAspectRatio="xMinYMin meet">
  <style>.shop { fill: red }</style>
  <g transform="translate(10 20)">
    <g id="cafe" class="shop" onclick="alert(1)" style="fill: red">
      <rect x="0" y="0" width="50" height="40" rx="4"/>
      <text x="5" y="20">Café</text>
      <path d="M0 0 L10 10 Z" fill-rule="evenodd"/>
    </g>
  </g>
  <polygon id="shoes" points="100,100 150,100 150,150"/>
  <rect id="sneaky" x="javascript:alert(1)" y="0" width="5" height="5"/>
  <defs><rect id="hidden" width="5" height="5"/></defs>
  <a href="https://example.com"><rect id="linked" width="5" height="5"/></a>
</svg>`;

describe('regionTintsMarkup', () => {
  it('copies each region inside its ancestors’ transforms, filled with its tint, in the drawing’s viewBox', () => {
    const markup = regionTintsMarkup(floor, [{ element: 'cafe', color: '#e11d48' }, { element: 'shoes', color: null }], '#e2e8f0')!;
    const cafe = tint('#e11d48', REGION_TINT.fill);
    expect(markup).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300" preserveAspectRatio="xMinYMin meet" focusable="false">' +
        `<g transform="translate(10 20)"><g><rect x="0" y="0" width="50" height="40" rx="4" fill="${cafe}"/><path d="M0 0 L10 10 Z" fill-rule="evenodd" fill="${cafe}"/></g></g>` +
        '<polygon points="100,100 150,100 150,150" fill="#e2e8f0"/>' +
        '</svg>',
    );
  });

  it('lets nothing but geometry through: no text, style, class, event, link or bad value', () => {
    const markup = regionTintsMarkup(floor, [{ element: 'cafe', color: '#e11d48' }, { element: 'sneaky', color: '#e11d48' }, { element: 'hidden', color: '#e11d48' }, { element: 'linked', color: '#e11d48' }], '#e2e8f0')!;
    for (const banned of ['<text', 'style', 'class', 'onclick', 'alert', 'javascript', 'href', '<a', 'Café']) expect(markup).not.toContain(banned);
    // The link's rectangle is drawn where it stands (the link itself is not copied).
    expect(markup).toContain('<rect width="5" height="5"');
  });

  it('gives nothing for no regions, an unreadable drawing, one without a size, or too large a copy', () => {
    expect(regionTintsMarkup(floor, [], '#e2e8f0')).toBeNull();
    expect(regionTintsMarkup('<svg', [{ element: 'cafe', color: null }], '#e2e8f0')).toBeNull();
    expect(regionTintsMarkup('<html><p id="cafe"/></html>', [{ element: 'cafe', color: null }], '#e2e8f0')).toBeNull();
    expect(regionTintsMarkup('<svg xmlns="http://www.w3.org/2000/svg"><rect id="cafe" width="5" height="5"/></svg>', [{ element: 'cafe', color: null }], '#e2e8f0')).toBeNull();
    const sized = regionTintsMarkup('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30px"><rect id="cafe" width="5" height="5"/></svg>', [{ element: 'cafe', color: null }], '#e2e8f0');
    expect(sized).toContain('viewBox="0 0 40 30"');
    const huge = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path id="big" d="M0 0 ${'L1 1 '.repeat(REGION_TINTS_MAX_CHARS / 4)}Z"/></svg>`;
    expect(regionTintsMarkup(huge, [{ element: 'big', color: null }], '#e2e8f0')).toBeNull();
  });
});
