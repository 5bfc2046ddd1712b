/**
 * What the SVG sanitiser tells the uploader it removed (never silently), and the viewBox it
 * gives a drawing that has none and no absolute size (server/files/svg-bounds.ts).
 */
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { sanitizeSvg } from '../../server/files/sanitize-svg.js';
import { contentBounds, parseTransform } from '../../server/files/svg-bounds.js';

const NS = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"';
const { window } = new JSDOM('');
const rootOf = (svg: string) => new window.DOMParser().parseFromString(svg, 'image/svg+xml').documentElement;
const viewBoxOf = (svg: string) => /viewBox="([^"]+)"/.exec(svg)?.[1];

describe('what the sanitiser removed, by kind', () => {
  it('counts embedded images it cannot keep and says what to do', () => {
    const images = Array.from({ length: 45 }, (_, i) => `<image x="${i}" width="10" height="10" href="data:image/svg+xml;base64,PHN2Zy8+"/>`).join('');
    const { removed, svg } = sanitizeSvg(`<svg ${NS} viewBox="0 0 100 100">${images}<rect id="keep" width="5" height="5"/></svg>`);
    expect(removed).toEqual([{ what: 'embedded images', count: 45, message: '45 embedded images were removed for safety; upload them as separate images.' }]);
    expect(svg).not.toContain('<image');
  });

  it('keeps embedded PNG, JPEG, GIF and WebP pictures and says nothing of them', () => {
    const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
    const { removed, svg } = sanitizeSvg(`<svg ${NS} viewBox="0 0 10 10"><image width="10" height="10" xlink:href="${png}"/></svg>`);
    expect(removed).toEqual([]);
    expect(svg).toContain('<image');
  });

  it('names each kind once with its count: linked images, scripts, handlers, web content, links, outside references and styles, editor data', () => {
    const { removed } = sanitizeSvg(`<svg ${NS} xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" viewBox="0 0 10 10" inkscape:version="1.3">
      <sodipodi:namedview id="base" inkscape:zoom="2"/>
      <image href="shop-1.png" width="1" height="1"/><image xlink:href="https://example.com/logo.png" width="1" height="1"/>
      <script>alert(1)</script><script>alert(2)</script>
      <rect width="1" height="1" onclick="a()" onmouseover="b()"/>
      <foreignObject><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>
      <a href="https://example.com"><rect width="1" height="1"/></a>
      <use href="other.svg#shape"/>
      <rect width="1" height="1" style="fill:url(https://example.com/p.png)"/>
      <animate attributeName="href" to="javascript:alert(1)"/>
    </svg>`);
    expect(Object.fromEntries(removed.map((part) => [part.what, part.count]))).toEqual({
      'linked images': 2,
      scripts: 2,
      'event handlers': 2,
      'embedded web content': 1,
      animations: 1,
      links: 1,
      'references to other files': 1,
      'outside styles': 1,
      'editor data': 2, // sodipodi:namedview and inkscape:version
    });
    expect(removed.find((part) => part.what === 'linked images')!.message).toBe(
      '2 images kept in other files were removed: a floor plan cannot load other files. Upload them as separate images.',
    );
    for (const part of removed) expect(part.message).toMatch(/^\d[\d,]* .+\.$/);
  });

  it('keeps an Inkscape label as data-name, so a region keeps its name', () => {
    const { svg } = sanitizeSvg(`<svg ${NS} xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" viewBox="0 0 10 10"><path id="path12" inkscape:label="Food court" d="M0 0h5v5z"/></svg>`);
    expect(svg).toContain('data-name="Food court"');
    expect(svg).not.toContain('inkscape');
  });

  it('says nothing when nothing was removed', () => {
    expect(sanitizeSvg(`<svg ${NS} viewBox="0 0 10 10"><rect id="a" width="1" height="1" fill="url(#p)"/></svg>`).removed).toEqual([]);
  });
});

describe('a viewBox from what the drawing draws', () => {
  it('gives an amCharts map (width and height 100%, no viewBox) the box of its shapes', () => {
    const result = sanitizeSvg(`<svg ${NS} width="100%" height="100%"><g><path id="US-CO" d="M524.26,297.34L522.11,332.21L393.21,351.89L406.05,262.04z"/><path id="US-CT" d="M1034.84,200.91L1038.24,212.85L1010.11,231.52z"/></g></svg>`);
    expect(viewBoxOf(result.svg)).toBe('393.21 200.91 645.03 150.98');
    expect(result).toMatchObject({ width: 645.03, height: 150.98 });
  });

  it('measures every kind of shape, curves exactly', () => {
    const box = contentBounds(rootOf(`<svg ${NS}>
      <rect x="10" y="10" width="5" height="5"/><circle cx="100" cy="100" r="10"/><ellipse cx="0" cy="50" rx="5" ry="2"/>
      <line x1="-20" y1="0" x2="0" y2="0"/><polygon points="200,0 210,5 205,120"/><polyline points="0,0 1,1"/>
      <path d="M 50 0 C 60 -20 70 -20 80 0"/><text x="9999" y="9999">not measured</text>
      <defs><rect x="-5000" width="10" height="10"/></defs></svg>`));
    expect(box!.minX).toBe(-20);
    expect(box!.maxX).toBe(210);
    expect(box!.minY).toBeCloseTo(-15, 5); // the curve's top: 0.75 of -20
    expect(box!.maxY).toBe(120);
  });

  it('applies transforms on groups and shapes, and <use> with its x and y', () => {
    const box = contentBounds(rootOf(`<svg ${NS}>
      <defs><symbol id="s"><rect width="10" height="10"/></symbol><rect id="r" width="4" height="4"/></defs>
      <g transform="translate(100 100) scale(2)"><rect width="10" height="10"/><use href="#r" x="20" y="0"/></g>
      <use xlink:href="#s" x="-50" y="-50"/>
      <rect width="10" height="10" transform="rotate(45)"/></svg>`));
    // translate+scale: 100..120 and the <use> at (20,0)*2+100: 140..148; symbol at -50..-40; rotated square: x from -7.07.
    expect(box).toMatchObject({ minX: -50, minY: -50, maxY: 120 });
    expect(box!.maxX).toBe(148);
  });

  it('widens the box by half the widest stroke', () => {
    expect(contentBounds(rootOf(`<svg ${NS} stroke-width="4"><rect width="10" height="10" stroke="black"/></svg>`))).toEqual({ minX: -2, minY: -2, maxX: 12, maxY: 12 });
  });

  it('reads transform lists and refuses what it cannot read', () => {
    expect(parseTransform('translate(10,20) scale(2)')).toEqual([2, 0, 0, 2, 10, 20]);
    expect(parseTransform('matrix(1 0 0 1 5 6)')).toEqual([1, 0, 0, 1, 5, 6]);
    expect(parseTransform('skewX(45)')![2]).toBeCloseTo(1, 10);
    expect(parseTransform('translate(1, 2) bogus(3)')).toBeNull();
    expect(parseTransform(null)).toEqual([1, 0, 0, 1, 0, 0]);
  });

  it('refuses a drawing with no size and nothing it can measure, saying what to do', () => {
    expect(() => sanitizeSvg(`<svg ${NS} width="100%"><text>Only words</text></svg>`)).toThrow(/give its root element a viewBox, or a width and height/);
  });
});
